package io.github.flashstock.orderdemo.order.web;

import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearer;
import static org.hamcrest.Matchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import io.github.flashstock.orderdemo.buyers.BuyerSecurity;
import io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures;
import io.github.flashstock.orderdemo.order.OrderRow;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The operators' listing of orders: behind the admin token (a buyer's token is not one), a page at a time, of one
 * status or all; a bad {@code page}, {@code size} or {@code status} is a 400 naming it, and nothing is read.
 */
@WebMvcTest(AdminOrdersController.class)
@Import({BuyerSecurity.class, AdminOrdersTest.Meters.class})
@TestPropertySource(properties = "orders.admin-token=" + AdminOrdersTest.ADMIN_TOKEN)
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
class AdminOrdersTest {

    static final String ADMIN_TOKEN = "admin-orders-admin-token-0001";

    /** The order rate limits count into a registry; a slice has none of its own. */
    @org.springframework.boot.test.context.TestConfiguration
    static class Meters {
        @org.springframework.context.annotation.Bean
        io.micrometer.core.instrument.MeterRegistry meterRegistry() {
            return new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        }
    }

    @DynamicPropertySource
    static void buyerTokens(DynamicPropertyRegistry registry) {
        BuyerTokenFixtures.configure(registry);
    }

    @Autowired
    MockMvc mvc;
    @MockitoBean
    ReadingOrders reading;

    @Test
    void listsThePageAskedForWithEachOrdersXid() throws Exception {
        Page<OrderRow> page = new Page<>(2, 1, 5);
        page.setRecords(List.of(new OrderRow("o-9", "alice", "CONFIRMED", "127.0.0.1:18091:9",
                Instant.parse("2026-12-03T10:00:00Z"), Instant.parse("2026-12-03T10:00:01Z"))));
        given(reading.page(OrderStatus.CONFIRMED, 2, 1)).willReturn(page);

        mvc.perform(get("/admin/orders?status=CONFIRMED&page=2&size=1").header("Authorization", "Bearer " + ADMIN_TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page").value(2))
                .andExpect(jsonPath("$.size").value(1))
                .andExpect(jsonPath("$.total").value(5))
                .andExpect(jsonPath("$.items[0].orderId").value("o-9"))
                .andExpect(jsonPath("$.items[0].userId").value("alice"))
                .andExpect(jsonPath("$.items[0].status").value("CONFIRMED"))
                .andExpect(jsonPath("$.items[0].xid").value("127.0.0.1:18091:9"))
                .andExpect(jsonPath("$.items[0].createdAt").value("2026-12-03T10:00:00Z"));
    }

    @Test
    void everyStatusPageOneOfFiftyUnlessAsked() throws Exception {
        given(reading.page(null, 1, 50)).willReturn(new Page<>(1, 50, 0));

        mvc.perform(get("/admin/orders").header("Authorization", "Bearer " + ADMIN_TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page").value(1))
                .andExpect(jsonPath("$.size").value(50))
                .andExpect(jsonPath("$.items").isEmpty());
    }

    @Test
    void refusesAnyoneButTheAdmin() throws Exception {
        mvc.perform(get("/admin/orders"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:admin-token-required"));
        mvc.perform(get("/admin/orders").header("Authorization", bearer("alice")))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:admin-token-required"));
        mvc.perform(get("/admin/orders").header("Authorization", "Bearer not-the-admin-token-00000"))
                .andExpect(status().isUnauthorized());

        verifyNoInteractions(reading);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "page=0         | page: must be 1 or more",
            "size=0         | size: must be 1 to 500",
            "size=501       | size: must be 1 to 500",
            "size=ten       | size: must be a whole number",
            "page=1e3       | page: must be a whole number",
            "status=SHIPPED | status: must be PENDING, CONFIRMED or CANCELLED",
            "status=pending | status: must be PENDING, CONFIRMED or CANCELLED"})
    void refusesABadPageSizeOrStatusNamingItAndReadsNothing(String query, String error) throws Exception {
        mvc.perform(get("/admin/orders?" + query).header("Authorization", "Bearer " + ADMIN_TOKEN))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"))
                .andExpect(jsonPath("$.errors", contains(error)));

        verifyNoInteractions(reading);
    }
}
