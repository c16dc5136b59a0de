package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.reservation.InventoryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/** The RocketMQ broker stops in the middle of a sale: the sale goes on; when it is back, the events arrive. */
class BrokerOutageIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aSaleGoesOnWithoutTheBrokerAndItsEventsArriveWhenItIsBack() {
        HttpHeaders admin = new HttpHeaders();
        admin.setBearerAuth(ADMIN_TOKEN);
        admin.setContentType(MediaType.APPLICATION_JSON);
        String sku = "sku-" + UUID.randomUUID();
        http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(Map.of("stocked", 50), admin), String.class);
        List<String> open = new ArrayList<>();
        List<GlobalTransaction> openTx = new ArrayList<>();

        SharedStack.during(Component.ROCKETMQ, () -> {
            // 10 buyers, every other one pays at once; the rest keep their reservation open
            for (int i = 0; i < 10; i++) {
                try {
                    GlobalTransaction tx = GlobalTransactions.begin("broker-outage-it", Duration.ofMinutes(2));
                    HttpHeaders h = new HttpHeaders();
                    h.setContentType(MediaType.APPLICATION_JSON);
                    h.set("TX_XID", tx.getXid());
                    int status = http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(Map.of(
                            "reservationId", "o-" + i, "userId", "u-" + i,
                            "lines", List.of(Map.of("skuId", sku, "quantity", 1))), h), String.class)
                            .getStatusCode().value();
                    assertThat(status).as("reservation %d while the broker is down", i).isEqualTo(201);
                    if (i % 2 == 0) {
                        tx.commit();
                    } else {
                        open.add(tx.getXid());
                        openTx.add(tx);
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                } finally {
                    RootContext.unbind();
                }
            }
            assertThat(new InventoryClient(http).stock(sku).at("/mysql/sold").asLong())
                    .isEqualTo(5);
            // the sale console's reading shows the events waiting in Redis, and for how long
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                JsonNode health = http.exchange("/admin/console/instance", HttpMethod.GET, new HttpEntity<>(null, admin),
                        JsonNode.class).getBody().path("health");
                assertThat(health.path("eventBacklog").asLong()).as("stream entries not yet with RocketMQ")
                        .isGreaterThanOrEqualTo(10);
                assertThat(health.path("eventLagMillis").asLong()).isPositive();
                assertThat(health.path("durabilityShortfalls")).isEmpty();
                assertThat(health.path("coordinators").path(0).path("reachable").asBoolean()).isTrue();
            });
        });

        // Broker back: the open reservations' Try events reach the ledger
        await().atMost(Duration.ofSeconds(120)).until(() -> open.stream().allMatch(xid ->
                "TRIED".equals(jdbc.query("SELECT state FROM stock_ledger WHERE xid = ?",
                        rs -> rs.next() ? rs.getString(1) : null, xid))));
        for (GlobalTransaction tx : openTx) {
            try {
                GlobalTransactions.commit(tx);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        // and the next reconciliation run finds nothing wrong with the SKU
        await().atMost(Duration.ofSeconds(30)).until(() ->
                new InventoryClient(http).stock(sku).at("/mysql/sold").asLong() == 10);
        JsonNode report = http.exchange("/admin/reconciliation/runs", HttpMethod.POST, new HttpEntity<>(null, admin),
                JsonNode.class).getBody();
        assertThat(java.util.stream.StreamSupport.stream(report.path("findings").spliterator(), false)
                .filter(f -> sku.equals(f.path("skuId").asText()))).isEmpty();
    }
}
