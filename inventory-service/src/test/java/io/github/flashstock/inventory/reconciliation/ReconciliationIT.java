package io.github.flashstock.inventory.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.AdjustableClock;
import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.reservation.ConfirmScript;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryScript;
import io.github.flashstock.inventory.stock.StockLine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * Injected drift, found and explained by a run, then repaired by the explicit admin actions with an audit
 * entry; a healthy SKU beside them is never reported.
 */
class ReconciliationIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    TryScript tryScript;

    @Autowired
    AdjustableClock clock;

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    private HttpHeaders admin() {
        HttpHeaders h = new HttpHeaders();
        h.setBearerAuth(ADMIN_TOKEN);
        h.setContentType(MediaType.APPLICATION_JSON);
        return h;
    }

    private String sku(long stocked) {
        String sku = "sku-" + UUID.randomUUID();
        http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(Map.of("stocked", stocked), admin()), String.class);
        return sku;
    }

    private JsonNode run() {
        ResponseEntity<JsonNode> r = http.exchange("/admin/reconciliation/runs", HttpMethod.POST,
                new HttpEntity<>(null, admin()), JsonNode.class);
        assertThat(r.getStatusCode().value()).isEqualTo(201);
        return r.getBody();
    }

    private static List<JsonNode> findingsOf(JsonNode report, String sku) {
        return java.util.stream.StreamSupport.stream(report.path("findings").spliterator(), false)
                .filter(f -> sku.equals(f.path("skuId").asText())).toList();
    }

    @Autowired
    ConfirmScript confirmScript;

    @Test
    void aConfirmWithoutARecordThatFoundTooFewUnitsIsReportedAsAnOversellUntilSettled() {
        // Given a committed transaction whose Try Redis never saw, confirmed on a SKU that has sold out meanwhile
        String sku = sku(2);
        String xid = "127.0.0.1:18091:" + Math.abs(UUID.randomUUID().getMostSignificantBits());
        assertThat(confirmScript.run(sku, xid, "order-lost", Duration.ofHours(1), 5, "u-8"))
                .isEqualTo(new PhaseOutcome.Oversold(5));

        // When reconciliation runs (twice: nothing settles it on its own)
        JsonNode first = run();
        JsonNode second = run();

        // Then both runs name the transaction, the reservation and the units
        for (JsonNode report : List.of(first, second)) {
            assertThat(findingsOf(report, sku)).singleElement().satisfies(f -> {
                assertThat(f.path("kind").asText()).isEqualTo("OVERSOLD_CONFIRM");
                assertThat(f.at("/facts/xid").asText()).isEqualTo(xid);
                assertThat(f.at("/facts/reservationId").asText()).isEqualTo("order-lost");
                assertThat(f.at("/facts/units").asLong()).isEqualTo(5);
            });
        }
    }

    @Test
    void reportsExactlyTheInjectedDriftAndTheRepairsRestoreAgreement() throws Exception {
        // Given a healthy SKU with a real sale through the TC
        String healthy = sku(10);
        GlobalTransaction tx = GlobalTransactions.begin("reconciliation-it");
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        h.set("TX_XID", tx.getXid());
        assertThat(http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(Map.of("reservationId", "o-1",
                "userId", "u-1", "lines", List.of(Map.of("skuId", healthy, "quantity", 2))), h), String.class)
                .getStatusCode().value()).isEqualTo(201);
        tx.commit();
        RootContext.unbind();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                new InventoryClient(http).stock(healthy).at("/mysql/sold").asLong() == 2);

        // and a SKU whose Redis hash was edited behind the service's back: 5 units appeared
        String edited = sku(10);
        redis.opsForHash().increment("inv:{" + edited + "}", "available", 5);
        redis.opsForHash().increment("inv:{" + edited + "}", "stocked", 5);
        redis.opsForHash().increment("inv:{" + edited + "}:seg:0", "available", 5);

        // and a SKU with a reservation TRIED under a global transaction the TC never had
        String stale = sku(10);
        String ghostXid = "127.0.0.1:18091:" + Math.abs(UUID.randomUUID().getMostSignificantBits());
        assertThat(tryScript.run(ghostXid, "ghost-1", 1, "u-9", List.of(new StockLine(stale, 3))))
                .isEqualTo(new TryOutcome.Reserved());
        clock.advance(Duration.ofMillis(2_100)); // older than overdue-after (2 s in tests), without waiting

        // When reconciliation runs
        JsonNode report = run();

        // Then it reports exactly those two SKUs, with the right kind and amounts
        assertThat(findingsOf(report, healthy)).isEmpty();
        assertThat(findingsOf(report, edited)).singleElement().satisfies(f -> {
            assertThat(f.path("kind").asText()).isEqualTo("REDIS_MYSQL_DRIFT");
            assertThat(f.at("/facts/unsoldDifference").asLong()).isEqualTo(5);
            assertThat(f.at("/facts/redisUnsold").asLong()).isEqualTo(15);
            assertThat(f.at("/facts/mysqlAvailable").asLong()).isEqualTo(10);
            assertThat(f.at("/facts/soldDifference").asLong()).isZero();
        });
        assertThat(findingsOf(report, stale)).singleElement().satisfies(f -> {
            assertThat(f.path("kind").asText()).isEqualTo("OVERDUE_RESERVATION");
            assertThat(f.at("/facts/xid").asText()).isEqualTo(ghostXid);
            assertThat(f.at("/facts/quantity").asLong()).isEqualTo(3);
            assertThat(f.at("/facts/transactionStatus").asText()).isEqualTo("NOT_FOUND");
        });
        ResponseEntity<JsonNode> latest = http.exchange("/admin/reconciliation/runs/latest", HttpMethod.GET,
                new HttpEntity<>(null, admin()), JsonNode.class);
        assertThat(latest.getBody().path("runId").asText()).isEqualTo(report.path("runId").asText());

        // When the explicit repairs run
        assertThat(http.exchange("/admin/reconciliation/skus/" + edited + "/reload", HttpMethod.POST,
                new HttpEntity<>(null, admin()), JsonNode.class).getStatusCode().value()).isEqualTo(200);
        assertThat(http.exchange("/admin/reconciliation/reservations/release", HttpMethod.POST,
                new HttpEntity<>(Map.of("skuId", stale, "xid", ghostXid, "reservationId", "ghost-1"), admin()),
                JsonNode.class).getStatusCode().value()).isEqualTo(200);

        // Then the next run finds nothing on them, Redis agrees with MySQL, and each repair left an audit entry
        JsonNode after = run();
        assertThat(findingsOf(after, edited)).isEmpty();
        assertThat(findingsOf(after, stale)).isEmpty();
        assertThat(new InventoryClient(http).stock(edited).at("/redis/available").asLong()).isEqualTo(10);
        assertThat(new InventoryClient(http).stock(stale).at("/redis/reserved").asLong()).isZero();
        for (String[] expected : new String[][] {{edited, "RELOAD_SKU"}, {stale, "RELEASE_RESERVATION"}}) {
            JsonNode audit = http.exchange("/admin/reconciliation/skus/" + expected[0] + "/audit", HttpMethod.GET,
                    new HttpEntity<>(null, admin()), JsonNode.class).getBody();
            // oldest first: the SKU's creation, then the repair, each once
            assertThat(audit.path("total").asLong()).isEqualTo(2);
            assertThat(audit.path("items")).hasSize(2);
            assertThat(audit.path("items").get(0).path("action").asText()).isEqualTo("CREATE_SKU");
            assertThat(audit.path("items").get(1).path("action").asText()).isEqualTo(expected[1]);
            assertThat(audit.path("items").get(1).path("sku_id").asText()).isEqualTo(expected[0]);
            assertThat(audit.path("items").get(1).path("actor").asText()).isEqualTo("admin");
        }
    }

    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    @Test
    void reportsALedgerThatSaysAReservationEndedWhileRedisStillHoldsIt() {
        String sku = sku(10);
        String xid = "127.0.0.1:18091:" + Math.abs(UUID.randomUUID().getMostSignificantBits());
        tryScript.run(xid, "r-1", 1, "u-1", List.of(new StockLine(sku, 2)));
        jdbc.update("INSERT INTO stock_ledger (xid, reservation_key, sku_id, quantity, state, store) "
                + "VALUES (?, 'r-1', ?, 2, 'CONFIRMED', 'REDIS')", xid, sku);

        JsonNode report = run();

        assertThat(findingsOf(report, sku)).extracting(f -> f.path("kind").asText())
                .contains("LEDGER_CONTRADICTS");
        assertThat(findingsOf(report, sku)).filteredOn(f -> f.path("kind").asText().equals("LEDGER_CONTRADICTS"))
                .anySatisfy(f -> {
                    assertThat(f.at("/facts/xid").asText()).isEqualTo(xid);
                    assertThat(f.at("/facts/ledgerState").asText()).isEqualTo("CONFIRMED");
                });
    }

    @Test
    void refusesToReleaseAReservationWhoseTransactionTheTcStillHolds() throws Exception {
        String sku = sku(10);
        GlobalTransaction tx = GlobalTransactions.begin("reconciliation-it");
        String xid = tx.getXid();
        try {
            HttpHeaders h = new HttpHeaders();
            h.setContentType(MediaType.APPLICATION_JSON);
            h.set("TX_XID", xid);
            http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(Map.of("reservationId", "o-2",
                    "userId", "u-2", "lines", List.of(Map.of("skuId", sku, "quantity", 1))), h), String.class);

            ResponseEntity<JsonNode> refused = http.exchange("/admin/reconciliation/reservations/release",
                    HttpMethod.POST, new HttpEntity<>(Map.of("skuId", sku, "xid", xid, "reservationId", "o-2"), admin()),
                    JsonNode.class);

            assertThat(refused.getStatusCode().value()).isEqualTo(409);
            assertThat(refused.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:release-refused");
            assertThat(new InventoryClient(http).stock(sku).at("/redis/reserved").asLong())
                    .isEqualTo(1);
        } finally {
            tx.rollback();
        }
    }

    @Test
    void reportsAGlobalSessionTheCoordinatorHasHeldTooLongWithWhatTheLedgerSays() throws Exception {
        // Given a global transaction whose inventory branch tried, and which nobody ends
        String sku = sku(10);
        GlobalTransaction tx = GlobalTransactions.begin("reconciliation-it");
        String xid = tx.getXid();
        try {
            HttpHeaders h = new HttpHeaders();
            h.setContentType(MediaType.APPLICATION_JSON);
            h.set("TX_XID", xid);
            assertThat(http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(Map.of("reservationId", "o-3",
                    "userId", "u-3", "lines", List.of(Map.of("skuId", sku, "quantity", 2))), h), String.class)
                    .getStatusCode().value()).isEqualTo(201);

            // When it is older than session-overdue-after (2 s in tests) and its ledger row has arrived, a run reports
            // it with the TC's view and the ledger's
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(sessionFindings(run(), xid)).singleElement().satisfies(f -> {
                        assertThat(f.path("skuId").asText()).isEqualTo(sku);
                        assertThat(f.at("/facts/status").asText()).isEqualTo("Begin");
                        assertThat(f.at("/facts/ageSeconds").asLong()).isGreaterThanOrEqualTo(2);
                        assertThat(f.at("/facts/ledger/0").asText()).isEqualTo(sku + " x2 TRIED");
                        assertThat(f.at("/facts/branches/0").asText()).startsWith("inventory-reservation Registered");
                    }));
        } finally {
            tx.rollback();
        }

        // Then, once the coordinator has ended it, it is reported no more
        assertThat(sessionFindings(run(), xid)).isEmpty();
    }

    private static List<JsonNode> sessionFindings(JsonNode report, String xid) {
        return java.util.stream.StreamSupport.stream(report.path("findings").spliterator(), false)
                .filter(f -> f.path("kind").asText().equals("OVERDUE_GLOBAL_SESSION"))
                .filter(f -> xid.equals(f.at("/facts/xid").asText())).toList();
    }
}
