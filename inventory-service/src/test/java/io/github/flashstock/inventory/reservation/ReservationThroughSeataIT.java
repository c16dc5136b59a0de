package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The test plays the order service: it begins a global transaction on the real TC, reserves over HTTP with the
 * XID, then commits or rolls back; the TC drives the inventory branch's Confirm or Cancel.
 */
class ReservationThroughSeataIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RecordedStockEvents events;

    InventoryClient inventory;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
    }

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    private static GlobalTransaction begin() throws Exception {
        return GlobalTransactions.begin("inventory-it");
    }

    private long ledgerRows(String xid, String state) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE xid = ? AND state = ?", Long.class, xid, state);
    }

    @Autowired
    StringRedisTemplate redis;

    /** The SKU's stock hash and segment 0 as they are now, to put back later. */
    private Map<String, byte[]> snapshot(String sku) {
        return Map.of(StockKeys.stock(sku), redis.dump(StockKeys.stock(sku)),
                StockKeys.segment(sku, 0), redis.dump(StockKeys.segment(sku, 0)));
    }

    /** Redis loses the Try: its stock back as before it, its fence record, open entry and purchase count gone. */
    private void loseTheTry(String sku, Map<String, byte[]> before, String xid, String reservationId, String user) {
        before.forEach((key, value) -> redis.restore(key, value, 0, TimeUnit.MILLISECONDS, true));
        redis.delete(List.of(StockKeys.fence(sku, xid, reservationId), StockKeys.buyer(sku, user)));
        redis.opsForSet().remove(StockKeys.open(sku), StockKeys.fence(sku, xid, reservationId));
    }

    @Test
    void aCommittedTryRedisLostIsConfirmedFromAvailableStock() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        Map<String, byte[]> before = snapshot(sku);
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(tx.getXid(), reservation, "alice", List.of(new InventoryClient.Item(sku, 3)))
                .getStatusCode().value()).isEqualTo(201);
        loseTheTry(sku, before, tx.getXid(), reservation, "alice");
        assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isZero();

        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(3);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(7);
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(7);
        assertThat(ledgerRows(tx.getXid(), "CONFIRMED")).isEqualTo(1);
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, tx.getXid(), reservation), "unrecorded")).isEqualTo("1");
    }

    @Test
    void aCommittedTryRedisLostWhoseUnitsWereSoldAgainIsRecordedAsAnOversell() throws Exception {
        String sku = inventory.skuWith(3, null, 1);
        Map<String, byte[]> before = snapshot(sku);
        GlobalTransaction lost = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(lost.getXid(), reservation, "alice", List.of(new InventoryClient.Item(sku, 3)))
                .getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        loseTheTry(sku, before, lost.getXid(), reservation, "alice");
        // Redis, not knowing of alice's units, sells all three to bob
        GlobalTransaction other = begin();
        assertThat(inventory.reserve(other.getXid(), "order-" + UUID.randomUUID(), "bob",
                List.of(new InventoryClient.Item(sku, 3))).getStatusCode().value()).isEqualTo(201);
        other.commit();
        RootContext.unbind();
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);

        GlobalTransactions.commit(lost);

        // the Confirm takes nothing, records the oversell, and the transaction ends (nothing left to retry)
        await().atMost(Duration.ofSeconds(30)).until(() -> redis.opsForHash().size(StockKeys.oversold(sku)) == 1);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(3);
        assertThat(stock.at("/mysql/sold").asLong()).isEqualTo(3);
        assertThat(redis.opsForHash().get(StockKeys.oversold(sku), StockKeys.fence(sku, lost.getXid(), reservation)))
                .isEqualTo("3");
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, lost.getXid(), reservation), "state"))
                .isEqualTo("CONFIRMED");
    }

    @Test
    void globalCommitConfirmsOnceAndMySqlShowsTheSale() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        GlobalTransaction tx = begin();
        String xid = tx.getXid();

        ResponseEntity<JsonNode> reserved = inventory.reserve(xid, "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(sku, 3)));
        assertThat(reserved.getStatusCode().value()).as("%s", reserved.getBody()).isEqualTo(201);
        assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isEqualTo(3);
        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(7);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(3);
        assertThat(stock.at("/mysql/stocked").asLong() - stock.at("/mysql/sold").asLong()).isEqualTo(7);
        assertThat(ledgerRows(xid, "CONFIRMED")).isEqualTo(1);
        // and each phase's event reached the topic (written by its script, sent on by the forwarder)
        await().atMost(Duration.ofSeconds(60)).until(() -> events.of(xid).size() == 2);
        assertThat(events.of(xid)).extracting(e -> e.phase() + " " + e.skuId() + " " + e.quantity() + " " + e.userId())
                .containsExactlyInAnyOrder("TRIED " + sku + " 3 alice", "CONFIRMED " + sku + " 3 alice");
    }

    @Test
    void globalRollbackRestoresTheStock() throws Exception {
        String sku = inventory.skuWith(10, 2, 1);
        GlobalTransaction tx = begin();
        String xid = tx.getXid();

        assertThat(inventory.reserve(xid, "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value()).isEqualTo(201);
        tx.rollback();

        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerRows(xid, "CANCELLED") == 1);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(10);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/redis/sold").asLong()).isZero();
        assertThat(stock.at("/mysql/sold").asLong()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> events.of(xid).size() == 2);
        assertThat(events.of(xid)).extracting(e -> e.phase() + " " + e.quantity())
                .containsExactlyInAnyOrder("TRIED 2", "CANCELLED 2");
        // the purchase count was given back: alice may buy her 2 again
        GlobalTransaction again = begin();
        assertThat(inventory.reserve(again.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value()).isEqualTo(201);
        again.rollback();
    }

    @Test
    void aRetriedCallInsideOneGlobalTransactionDeductsOnce() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();

        // the same reservation twice: each call registers a branch of its own
        assertThat(inventory.reserve(tx.getXid(), reservation, "alice", List.of(new InventoryClient.Item(sku, 4)))
                .getStatusCode().value()).isEqualTo(201);
        assertThat(inventory.reserve(tx.getXid(), reservation, "alice", List.of(new InventoryClient.Item(sku, 4)))
                .getStatusCode().value()).isEqualTo(201);
        assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isEqualTo(4);
        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 4);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(6);
        assertThat(ledgerRows(tx.getXid(), "CONFIRMED")).isEqualTo(1);
    }

    @Autowired
    HeldTryGate gate;

    @Test
    void aTryOvertakenByItsCancelIsRefusedAndLocksNothing() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        String reservation = "order-" + UUID.randomUUID();
        HeldTryGate.Hold hold = gate.hold(reservation);
        GlobalTransaction tx = begin();
        String xid = tx.getXid();

        // Given a Try whose branch is registered at the TC but whose script has not run yet
        java.util.concurrent.CompletableFuture<ResponseEntity<JsonNode>> late = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> inventory.reserve(xid, reservation, "alice", List.of(new InventoryClient.Item(sku, 3))));
        assertThat(hold.entered().await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        // When the global transaction rolls back, so the TC delivers the Cancel first, and then the Try goes on
        tx.rollback();
        hold.release().countDown();
        ResponseEntity<JsonNode> refused = late.get(30, java.util.concurrent.TimeUnit.SECONDS);

        // Then the Try is refused and nothing is locked: no suspended reservation
        assertThat(refused.getStatusCode().value()).as("%s", refused.getBody()).isEqualTo(409);
        assertThat(refused.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:reservation-cancelled");
        assertThat(refused.getBody().path("skuId").asText()).isEqualTo(sku);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/redis/sold").asLong()).isZero();
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(10);
    }

    @Test
    void aRefusedTryLeavesNothingAndTheRollbackIsClean() throws Exception {
        String plenty = inventory.skuWith(10, null, 1);
        String scarce = inventory.skuWith(1, null, 1);
        GlobalTransaction tx = begin();

        ResponseEntity<JsonNode> refused = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(plenty, 2), new InventoryClient.Item(scarce, 2)));
        tx.rollback();

        assertThat(refused.getStatusCode().value()).isEqualTo(409);
        assertThat(refused.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:insufficient-stock");
        assertThat(refused.getBody().path("skuId").asText()).isEqualTo(scarce);
        assertThat(refused.getBody().path("requested").asInt()).isEqualTo(2);
        assertThat(refused.getBody().path("available").asInt()).isEqualTo(1);
        assertThat(inventory.stock(plenty).at("/redis/reserved").asLong()).isZero();
        assertThat(inventory.stock(scarce).at("/redis/reserved").asLong()).isZero();
    }
}
