package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Orders written and read through MyBatis-Plus on the real orders database: a row written whole and read back by its
 * key, and the admin listing a page at a time, newest first, of one status or all. The database is shared with other
 * tests, so the checks look at this test's own orders (the newest) and at how the totals move.
 */
@DevStackTest({Component.MARIADB, Component.SEATA})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("devstack")
class ReadingOrdersIT {

    @Autowired
    OrderMapper mapper;

    @Autowired
    ReadingOrders reading;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        Endpoints e = SharedStack.endpoints();
        registry.add("spring.datasource.url", () -> e.jdbcUrl("orders"));
        registry.add("spring.datasource.username", () -> e.dbUser("orders"));
        registry.add("spring.datasource.password", e::dbPassword);
        registry.add("seata.service.grouplist.default", e::seataAddress);
    }

    @Test
    void aRowWrittenWholeReadsBackWithTheDatabasesTimes() {
        String pending = newOrderId();
        String refused = newOrderId();

        assertThat(mapper.insert(new OrderRow(pending, "list-user", "PENDING", "127.0.0.1:18091:1", null, null)))
                .isEqualTo(1);
        assertThat(mapper.insertRefused(refused, "list-user")).isEqualTo(1);

        OrderRow row = mapper.find(pending);
        assertThat(row.orderId()).isEqualTo(pending);
        assertThat(row.userId()).isEqualTo("list-user");
        assertThat(row.status()).isEqualTo("PENDING");
        assertThat(row.xid()).isEqualTo("127.0.0.1:18091:1");
        assertThat(row.createdAt()).isNotNull();
        assertThat(row.updatedAt()).isNotNull();
        assertThat(mapper.find(refused).status()).isEqualTo("CANCELLED");
        assertThat(mapper.find(refused).xid()).isNull();
        assertThat(mapper.find(newOrderId())).isNull();
    }

    @Test
    void theListingComesAPageAtATimeNewestFirstOfOneStatusOrAll() {
        long allBefore = reading.page(null, 1, 1).getTotal();
        long cancelledBefore = reading.page(OrderStatus.CANCELLED, 1, 1).getTotal();
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String orderId = newOrderId();
            mapper.insert(new OrderRow(orderId, "list-user", "PENDING", null, null, null));
            mine.add(orderId);
        }
        String refused = newOrderId();
        mapper.insertRefused(refused, "list-user");
        mine.add(refused);

        IPage<OrderRow> newest = reading.page(null, 1, 4);
        assertThat(newest.getTotal()).isEqualTo(allBefore + 4);
        assertThat(newest.getCurrent()).isEqualTo(1);
        assertThat(newest.getSize()).isEqualTo(4);
        assertThat(newest.getRecords()).extracting(OrderRow::orderId).containsExactlyInAnyOrderElementsOf(mine);
        for (int i = 1; i < newest.getRecords().size(); i++) {
            assertThat(newest.getRecords().get(i).createdAt()).as("newest first")
                    .isBeforeOrEqualTo(newest.getRecords().get(i - 1).createdAt());
        }

        List<String> firstTwo = reading.page(null, 1, 2).getRecords().stream().map(OrderRow::orderId).toList();
        List<String> nextTwo = reading.page(null, 2, 2).getRecords().stream().map(OrderRow::orderId).toList();
        assertThat(firstTwo).hasSize(2).doesNotContainAnyElementsOf(nextTwo);
        assertThat(nextTwo).hasSize(2);
        assertThat(mine).containsAll(firstTwo).containsAll(nextTwo);

        IPage<OrderRow> cancelled = reading.page(OrderStatus.CANCELLED, 1, 1);
        assertThat(cancelled.getTotal()).isEqualTo(cancelledBefore + 1);
        assertThat(cancelled.getRecords()).extracting(OrderRow::orderId).containsExactly(refused);
        assertThat(reading.page(OrderStatus.PENDING, 1, 3).getRecords()).extracting(OrderRow::status)
                .containsOnly("PENDING");

        long pages = (newest.getTotal() + 1) / 2;
        assertThat(reading.page(null, pages + 1, 2).getRecords()).as("past the last page").isEmpty();
    }

    private static String newOrderId() {
        return "list-" + UUID.randomUUID();
    }
}
