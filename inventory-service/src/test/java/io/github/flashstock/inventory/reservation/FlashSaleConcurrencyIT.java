package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import tools.jackson.databind.JsonNode;
import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * 2,000 buyers at once, each in a global transaction of its own on the real TC, reserving over HTTP: the hot
 * SKU never sells more than it has; after the commits and rollbacks every invariant of the stock model (docs/design.md, "The inventory service") holds and
 * Redis agrees with MySQL.
 */
class FlashSaleConcurrencyIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void twoThousandBuyersNeverOversellTwoHundredUnitsAndBothStoresAgree() throws Exception {
        InventoryClient inventory = new InventoryClient(http);
        String hot = inventory.skuWith(200, null, 1);
        String side = inventory.skuWith(5000, null, 1);
        AtomicLong refused = new AtomicLong();
        List<Reserved> reserved = java.util.Collections.synchronizedList(new ArrayList<>());

        // When 2,000 buyers reserve at once, each in a global transaction that stays open
        ExecutorService pool = Executors.newFixedThreadPool(48);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> buyers = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int buyer = i;
            buyers.add(pool.submit(() -> {
                start.await();
                int q = 1 + ThreadLocalRandom.current().nextInt(3);
                boolean basket = buyer % 5 == 0;
                List<InventoryClient.Item> items = basket
                        ? List.of(new InventoryClient.Item(hot, q), new InventoryClient.Item(side, 1))
                        : List.of(new InventoryClient.Item(hot, q));
                try {
                    GlobalTransaction tx = GlobalTransactions.begin("flash-sale-it", Duration.ofMinutes(2));
                    ResponseEntity<JsonNode> r = inventory.reserve(tx.getXid(), "order-" + buyer, "user-" + buyer, items);
                    if (r.getStatusCode().value() == 201) {
                        reserved.add(new Reserved(tx, q, basket));
                    } else {
                        assertThat(r.getStatusCode().value()).as("%s", r.getBody()).isEqualTo(409);
                        assertThat(r.getBody().path("type").asText()).endsWith("insufficient-stock");
                        refused.incrementAndGet();
                        tx.rollback();
                    }
                } finally {
                    RootContext.unbind();
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : buyers) {
            f.get(5, TimeUnit.MINUTES);
        }

        // Then no more than the stock is reserved, and Redis locks exactly what was reserved
        long hotReserved = reserved.stream().mapToLong(Reserved::hotUnits).sum();
        assertThat(hotReserved).isLessThanOrEqualTo(200).isGreaterThanOrEqualTo(198);
        assertThat(refused.get()).isPositive();
        assertThat(inventory.stock(hot).at("/redis/reserved").asLong()).isEqualTo(hotReserved);

        // When every other buyer pays (global commit) and the rest abandon (global rollback), concurrently
        AtomicLong hotConfirmed = new AtomicLong();
        AtomicLong sideConfirmed = new AtomicLong();
        List<Future<?>> endings = new ArrayList<>();
        for (int i = 0; i < reserved.size(); i++) {
            Reserved r = reserved.get(i);
            boolean pays = i % 2 == 0;
            endings.add(pool.submit(() -> {
                if (pays) {
                    r.tx().commit();
                    hotConfirmed.addAndGet(r.hotUnits());
                    sideConfirmed.addAndGet(r.basket() ? 1 : 0);
                } else {
                    r.tx().rollback();
                }
                return null;
            }));
        }
        for (Future<?> f : endings) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        // Every second phase has run once the ledger holds all confirmed units
        await().atMost(Duration.ofSeconds(60)).until(() -> confirmedInLedger(hot) == hotConfirmed.get());
        for (String sku : List.of(hot, side)) {
            JsonNode s = inventory.stock(sku);
            long stocked = sku.equals(hot) ? 200 : 5000;
            long confirmed = sku.equals(hot) ? hotConfirmed.get() : sideConfirmed.get();
            await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(sku).at("/redis/reserved").asLong() == 0);
            // a Confirm whose MySQL step lost a deadlock returned false and is retried by Seata a moment later
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == confirmed);
            s = inventory.stock(sku);
            long available = s.at("/redis/available").asLong();
            long sold = s.at("/redis/sold").asLong();
            long stillReserved = s.at("/redis/reserved").asLong();
            assertThat(stillReserved).isZero();
            assertThat(available + stillReserved + sold).as("conservation of %s", sku).isEqualTo(stocked);
            assertThat(available).isNotNegative();
            assertThat(sold).isEqualTo(confirmed);
            // Redis agrees with MySQL, word for word
            assertThat(s.at("/mysql/sold").asLong()).isEqualTo(sold);
            assertThat(s.at("/mysql/stocked").asLong()).isEqualTo(s.at("/redis/stocked").asLong());
            assertThat(s.at("/mysql/available").asLong()).isEqualTo(available);
            assertThat(confirmedInLedger(sku)).isEqualTo(sold);
        }
    }

    record Reserved(GlobalTransaction tx, long hotUnits, boolean basket) {
    }

    private long confirmedInLedger(String sku) {
        Long sum = jdbc.queryForObject("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = ? "
                + "AND state = 'CONFIRMED'", Long.class, sku);
        return sum == null ? 0 : sum;
    }
}
