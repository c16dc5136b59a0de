package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;

/** Stock events through the devstack's real broker into the ledger. */
class StockEventsIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RocketMQTemplate rocketmq;

    @Autowired
    StockEventSettings settings;

    @Autowired
    MeterRegistry meters;

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    private List<Map<String, Object>> ledger(String xid) {
        return jdbc.queryForList("SELECT sku_id, quantity, state FROM stock_ledger WHERE xid = ?", xid);
    }

    @Test
    void anOpenReservationReachesTheLedgerAsTriedAndEndsConfirmed() throws Exception {
        String sku = "sku-" + UUID.randomUUID();
        HttpHeaders admin = new HttpHeaders();
        admin.setBearerAuth(ADMIN_TOKEN);
        admin.setContentType(MediaType.APPLICATION_JSON);
        http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(Map.of("stocked", 10), admin), String.class);
        GlobalTransaction tx = GlobalTransactions.begin("events-it");
        String xid = tx.getXid();
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("TX_XID", xid);
        assertThat(http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(Map.of("reservationId", "o-1",
                "userId", "u-1", "lines", List.of(Map.of("skuId", sku, "quantity", 2))), headers), String.class)
                .getStatusCode().value()).isEqualTo(201);

        // The Try's event reaches the ledger while the reservation is open
        await().atMost(Duration.ofSeconds(60)).until(() -> ledger(xid).size() == 1);
        assertThat(ledger(xid)).singleElement().satisfies(row -> {
            assertThat(row.get("state")).isEqualTo("TRIED");
            assertThat(((Number) row.get("quantity")).longValue()).isEqualTo(2);
        });

        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> "CONFIRMED".equals(ledger(xid).get(0).get("state")));
        assertThat(ledger(xid)).hasSize(1);
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isEqualTo(2);
    }

    @Test
    void endStateEventsThatOvertakeThePhasesOwnMySqlStepNeitherWriteTheEndStateNorStopTheSaleBeingCounted() {
        // Two reservations as the fence allows them: each Tried, then either Confirmed or Cancelled, never both. The
        // scripts append a phase's event before the phase's MySQL step runs, so its event may arrive first.
        String paid = "it-" + UUID.randomUUID();
        String abandoned = "it-" + UUID.randomUUID();
        String sku = "sku-" + UUID.randomUUID();
        HttpHeaders admin = new HttpHeaders();
        admin.setBearerAuth(ADMIN_TOKEN);
        admin.setContentType(MediaType.APPLICATION_JSON);
        http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(Map.of("stocked", 10), admin), String.class);
        StockEventMessage paidTried = new StockEventMessage("TRIED", paid, "o-1", 7, sku, 3, "u-1", "REDIS", 1);
        StockEventMessage paidConfirmed = new StockEventMessage("CONFIRMED", paid, "o-1", 7, sku, 3, "u-1", "REDIS", 2);
        StockEventMessage abandonedTried = new StockEventMessage("TRIED", abandoned, "o-2", 8, sku, 1, "u-2", "REDIS", 1);
        StockEventMessage abandonedCancelled = new StockEventMessage("CANCELLED", abandoned, "o-2", 8, sku, 1, "u-2",
                "REDIS", 2);
        double before = folded();
        double endStatesBefore = folded("CONFIRMED") + folded("CANCELLED");

        // When the end states overtake the Tries and everything arrives twice, each tagged with its phase as the
        // forwarder tags it
        for (StockEventMessage e : List.of(paidConfirmed, abandonedCancelled, paidTried, abandonedTried, paidConfirmed,
                abandonedCancelled, paidTried, abandonedTried)) {
            rocketmq.syncSend(settings.topic() + ":" + e.phase(), e);
        }

        // Then each reservation has one ledger row, TRIED, with its quantity: the events wrote no end state (the
        // ledger group subscribes to TRIED only, so the end states never reached it)
        await().atMost(Duration.ofSeconds(60)).until(() -> folded() - before >= 4);
        assertThat(folded("CONFIRMED") + folded("CANCELLED")).isEqualTo(endStatesBefore);
        assertThat(ledger(paid)).singleElement().satisfies(row -> {
            assertThat(row.get("state")).isEqualTo("TRIED");
            assertThat(((Number) row.get("quantity")).longValue()).isEqualTo(3);
        });
        assertThat(ledger(abandoned)).singleElement().satisfies(row -> assertThat(row.get("state")).isEqualTo("TRIED"));

        // And the phases' own MySQL steps, arriving last, end the rows and count the sale once, replays included
        for (int i = 0; i < 2; i++) {
            sales.confirmed(paid, "o-1", 7, sku, 3);
            sales.cancelled(abandoned, "o-2", 8, sku, 1);
        }
        assertThat(ledger(paid)).singleElement().satisfies(row -> assertThat(row.get("state")).isEqualTo("CONFIRMED"));
        assertThat(ledger(abandoned)).singleElement().satisfies(row -> assertThat(row.get("state"))
                .isEqualTo("CANCELLED"));
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isEqualTo(3);
    }

    @Autowired
    io.github.flashstock.inventory.stock.SalesRecord sales;

    @Test
    void aMessageThatKeepsFailingEndsInTheDeadLetterQueueAfterTheConfiguredRetries() {
        double before = dlqDepth();

        // a message the consumer can never read
        rocketmq.syncSend(settings.topic() + ":TRIED", "not a stock event " + UUID.randomUUID());

        await().atMost(Duration.ofSeconds(90)).until(() -> dlqDepth() >= before + 1);
    }

    private double dlqDepth() {
        return meters.get("inventory.ledger.dlq.depth").gauge().value();
    }

    private double folded() {
        return meters.find("inventory.ledger.events").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private double folded(String phase) {
        return meters.find("inventory.ledger.events").tag("phase", phase).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }
}
