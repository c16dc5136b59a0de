package io.github.flashstock.inventory.allotment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.LiveConfig;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.reservation.InventoryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * A SKU's allotment changed in the configuration in the middle of a sale (the path a Nacos push takes), on the real
 * servers: the rebalancer moves units through handovers until the allotment is at its new target, as units and as a
 * share, while 16 buyers reserve and pay or abandon in real global transactions; no Try fails that the SKU could
 * serve, and afterwards every unit is in one store once and the reconciler finds nothing.
 */
class LiveAllotmentsIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    ContextRefresher refresher;

    @Autowired
    Reconciler reconciler;

    @Autowired
    StockHandoverMapper handovers;

    private final String original = LiveConfig.read();

    @AfterEach
    void restoreConfiguration() {
        LiveConfig.write(original);
        refresher.refresh();
    }

    private void reserve(String sku, String value) {
        LiveConfig.write(original.replace("      skus: {}\n    # Tries per second", "      skus:\n        " + sku
                + ": \"" + value + "\"\n    # Tries per second"));
        refresher.refresh();
    }

    @Test
    void aReserveChangedDuringASaleMovesUnitsThroughHandoversAndLosesNone() throws Exception {
        String sku = "live-reserve-" + UUID.randomUUID();
        reserve(sku, "100");
        create(sku, 3_000);
        InventoryClient inventory = new InventoryClient(http);
        assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(100);

        AtomicBoolean selling = new AtomicBoolean(true);
        AtomicLong paid = new AtomicLong();
        List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<?>> buyers = new ArrayList<>();
        for (int b = 0; b < 16; b++) {
            int buyer = b;
            buyers.add(pool.submit(() -> {
                for (int order = 0; selling.get(); order++) {
                    try {
                        GlobalTransaction tx = GlobalTransactions.begin("live-reserves-it");
                        ResponseEntity<JsonNode> r = inventory.reserve(tx.getXid(), "o-" + buyer + "-" + order,
                                "u-" + buyer + "-" + order, List.of(new InventoryClient.Item(sku, 1)));
                        if (r.getStatusCode().value() == 201 && order % 4 != 0) {
                            tx.commit();
                            paid.incrementAndGet();
                        } else {
                            if (r.getStatusCode().value() != 201) {
                                unexpected.add(r.getStatusCode() + " " + r.getBody());
                            }
                            tx.rollback();
                        }
                    } finally {
                        RootContext.unbind();
                    }
                }
                return null;
            }));
        }

        // When the allotment goes from 100 units to 400 in the middle of the sale, then to a share of 5 %
        await().atMost(Duration.ofSeconds(60)).until(() -> paid.get() >= 100);
        reserve(sku, "400");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(400));
        reserve(sku, "5%");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode s = inventory.stock(sku);
            long available = s.at("/mysql/available").asLong();
            // a share is moved when it is off by more than a tenth of its target
            assertThat(s.at("/mysql/allotment/available").asLong()).isBetween(available * 5 / 100 * 9 / 10,
                    available * 5 / 100 * 11 / 10 + 1);
        });
        selling.set(false);
        for (Future<?> f : buyers) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();

        // Then every Try was served, and the moves are on record
        assertThat(unexpected).isEmpty();
        assertThat(handovers.lastOf(sku, 50)).extracting(r -> r.direction() + " " + r.state())
                .contains("TO_MYSQL DONE", "TO_REDIS DONE");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode s = inventory.stock(sku);
            assertThat(s.at("/redis/reserved").asLong()).isZero();
            assertThat(s.at("/mysql/sold").asLong()).isEqualTo(paid.get());
        });
        JsonNode s = inventory.stock(sku);
        assertThat(s.at("/redis/stocked").asLong() + s.at("/mysql/allotment/available").asLong()
                + s.at("/mysql/allotment/incoming").asLong() + s.at("/mysql/reserved").asLong()
                + s.at("/mysql/allotment/sold").asLong()).as("every unit once: %s", s).isEqualTo(3_000);
        assertThat(s.at("/redis/sold").asLong() + s.at("/mysql/allotment/sold").asLong()).isEqualTo(paid.get());
        assertThat(reconciler.check(sku)).isEmpty();
    }

    private void create(String sku, long units) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        ResponseEntity<String> r = http.exchange("/admin/skus/" + sku, HttpMethod.PUT,
                new HttpEntity<>(Map.of("stocked", units, "segments", 1), headers), String.class);
        assertThat(r.getStatusCode().value()).as("%s", r.getBody()).isEqualTo(201);
    }
}
