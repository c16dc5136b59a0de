package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.reconciliation.Finding;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.core.model.GlobalStatus;
import org.apache.seata.tm.api.GlobalTransaction;
import org.apache.seata.tm.api.GlobalTransactionContext;
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
 * A caller that commits after a refusal: the test plays an order service that ignores the 409 (or a stranger that
 * attached a line to a live transaction). It begins a global transaction on the real TC, sends Tries over HTTP, one
 * of them refused, and commits all the same. The refused Try's REFUSED record makes its Confirm take nothing: no unit
 * sold beyond what was answered 201, no buyer above their limit, no false oversell alarm, and a finding
 * (CONFIRM_OF_REFUSED_TRY) and a metric that say what happened.
 */
class RefusedTryIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    Reconciler reconciler;

    @Autowired
    @org.springframework.beans.factory.annotation.Qualifier(ReservationStore.MYSQL)
    ReservationStore mysqlStore;

    @Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

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
        return GlobalTransactions.begin("refused-try-it");
    }

    /** Commits and waits until the TC has finished the transaction (every branch confirmed). */
    private static void commitAndWait(GlobalTransaction tx) throws Exception {
        GlobalTransactions.commit(tx);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            GlobalStatus s = GlobalTransactionContext.reload(tx.getXid()).getStatus();
            return s == GlobalStatus.Committed || s == GlobalStatus.Finished || s == GlobalStatus.UnKnown;
        });
    }

    private List<Finding> refusedConfirms(String sku) {
        return reconciler.check(sku).stream().filter(f -> f.kind() == Finding.Kind.CONFIRM_OF_REFUSED_TRY).toList();
    }

    private double refusedConfirmCount() {
        return meters.find("inventory.confirm-of-refused-try").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    @Test
    void aCommitAfterALimitRefusalSellsNothingBeyondTheLimit() throws Exception {
        String sku = inventory.skuWith(10, 2, 1);
        double before = refusedConfirmCount();
        GlobalTransaction tx = begin();
        String first = "order-" + UUID.randomUUID();
        String second = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(tx.getXid(), first, "alice", List.of(new InventoryClient.Item(sku, 2)))
                .getStatusCode().value()).isEqualTo(201);
        ResponseEntity<JsonNode> refused = inventory.reserve(tx.getXid(), second, "alice",
                List.of(new InventoryClient.Item(sku, 2)));
        assertThat(refused.getStatusCode().value()).isEqualTo(409);
        assertThat(refused.getBody().path("type").asText()).endsWith("purchase-limit-exceeded");
        // a replay of the refused Try is refused the same way: the record answers it
        ResponseEntity<JsonNode> again = inventory.reserve(tx.getXid(), second, "alice",
                List.of(new InventoryClient.Item(sku, 2)));
        assertThat(again.getStatusCode().value()).isEqualTo(409);
        assertThat(again.getBody().path("type").asText()).endsWith("purchase-limit-exceeded");

        commitAndWait(tx);

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 2
                && !refusedConfirms(sku).isEmpty());
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(2);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(8);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "alice"))).isEqualTo("2");
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, tx.getXid(), second), "state")).isEqualTo("REFUSED");
        List<Finding> findings = refusedConfirms(sku);
        assertThat(findings).hasSize(1);
        assertThat(findings.get(0).facts()).containsEntry("reservationId", second);
        // the counter is the service's, shared with the other tests' Confirms: it moved by this one at least
        assertThat(refusedConfirmCount()).isGreaterThanOrEqualTo(before + 1);
    }

    @Test
    void aCommitAfterAStockRefusalTakesNothingAndRaisesNoOversell() throws Exception {
        String sku = inventory.skuWith(1, null, 1);
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(tx.getXid(), reservation, "bob", List.of(new InventoryClient.Item(sku, 2)))
                .getStatusCode().value()).isEqualTo(409);

        commitAndWait(tx);

        await().atMost(Duration.ofSeconds(30)).until(() -> !refusedConfirms(sku).isEmpty());
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(1);
        assertThat(stock.at("/redis/sold").asLong()).isZero();
        assertThat(stock.at("/mysql/sold").asLong()).isZero();
        assertThat(redis.hasKey(StockKeys.oversold(sku))).isFalse();
        assertThat(reconciler.check(sku)).extracting(Finding::kind)
                .doesNotContain(Finding.Kind.OVERSOLD_CONFIRM);
    }

    @Test
    void aCommitAfterAMultiSkuRefusalTakesNothingOnAnySku() throws Exception {
        String plenty = inventory.skuWith(10, null, 2);
        String scarce = inventory.skuWith(1, null, 1);
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(tx.getXid(), reservation, "carol", List.of(new InventoryClient.Item(plenty, 3),
                new InventoryClient.Item(scarce, 2))).getStatusCode().value()).isEqualTo(409);

        commitAndWait(tx);

        await().atMost(Duration.ofSeconds(30)).until(() -> !refusedConfirms(plenty).isEmpty()
                && !refusedConfirms(scarce).isEmpty());
        for (String sku : List.of(plenty, scarce)) {
            JsonNode stock = inventory.stock(sku);
            assertThat(stock.at("/redis/sold").asLong()).as(sku).isZero();
            assertThat(stock.at("/redis/reserved").asLong()).as(sku).isZero();
            assertThat(stock.at("/mysql/sold").asLong()).as(sku).isZero();
        }
        assertThat(inventory.stock(plenty).at("/redis/available").asLong()).isEqualTo(10);
    }

    /**
     * Many buyers at once, each in a transaction of their own, each sending one Try within their limit and one beyond
     * it and committing both: every buyer ends with exactly their limit, and the SKU sells exactly what was answered
     * 201.
     */
    @Test
    void manyBuyersCommittingAfterRefusalsNeverPassTheirLimit() throws Exception {
        String sku = inventory.skuWith(200, 2, 4);
        int buyers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> granted = new ArrayList<>();
        try {
            for (int b = 0; b < buyers; b++) {
                String user = "buyer-" + b;
                granted.add(pool.submit(() -> {
                    GlobalTransaction tx = begin();
                    int units = 0;
                    for (int t = 0; t < 2; t++) {
                        ResponseEntity<JsonNode> r = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(),
                                user, List.of(new InventoryClient.Item(sku, 2)));
                        if (r.getStatusCode().value() == 201) {
                            units += 2;
                        } else {
                            assertThat(r.getStatusCode().value()).isEqualTo(409);
                        }
                    }
                    commitAndWait(tx);
                    return units;
                }));
            }
            int answered = 0;
            for (Future<Integer> f : granted) {
                answered += f.get();
            }
            int expected = answered;
            assertThat(expected).isEqualTo(buyers * 2);
            await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong()
                    == expected);
            assertThat(inventory.stock(sku).at("/redis/sold").asLong()).isEqualTo(expected);
            for (int b = 0; b < buyers; b++) {
                assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "buyer-" + b))).isEqualTo("2");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The MySQL store records refusals too (Redis out of reach, or a SKU being recovered): its REFUSED row makes a
     * Confirm take nothing, a Cancel find an ended branch, and a replay of the Try refused again.
     */
    @Test
    void theMysqlStoreRecordsARefusalThatItsConfirmAndCancelHonour() {
        String sku = inventory.skuWith(10, null, 1);
        String xid = "127.0.0.1:8091:" + Math.abs(UUID.randomUUID().getMostSignificantBits());
        StockLine line = new StockLine(sku, 3);
        PhaseLine l = new PhaseLine(xid, "order-m", 1, "dora", line);
        mysqlStore.refuse(l, new TryOutcome.InsufficientStock(sku, 3, 0));
        mysqlStore.refuse(l, new TryOutcome.InsufficientStock(sku, 3, 0));

        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE xid = ? AND state = 'REFUSED'",
                Long.class, xid)).isEqualTo(1);
        assertThat(mysqlStore.end(Phase.CONFIRM, l, false)).containsInstanceOf(PhaseOutcome.Refused.class);
        assertThat(mysqlStore.end(Phase.CANCEL, l, false)).containsInstanceOf(PhaseOutcome.AlreadyApplied.class);
        assertThat(mysqlStore.reserve(new TryRequest(xid, "order-m", 1, "dora", List.of(line)),
                TryRoute.REDIS_UNREACHABLE))
                .isInstanceOf(TryOutcome.InsufficientStock.class);
        assertThat(jdbc.queryForObject("SELECT reserved FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isZero();
    }

    /**
     * A Try of a SKU being recovered (its Redis stock built on another Redis process) is refused, and the refusal is
     * recorded in MySQL, which the rebuild reads: a commit after it sells nothing.
     */
    @Test
    void aCommitAfterARefusalWhileTheSkuIsRecoveredTakesNothing() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        redis.opsForHash().put(StockKeys.stock(sku), "epoch", "0123456789abcdef0123456789abcdef01234567");
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();
        ResponseEntity<JsonNode> refused = inventory.reserve(tx.getXid(), reservation, "erin",
                List.of(new InventoryClient.Item(sku, 4)));
        assertThat(refused.getStatusCode().value()).isEqualTo(503);
        assertThat(jdbc.queryForObject("SELECT refusal FROM stock_ledger WHERE xid = ? AND sku_id = ?", String.class,
                tx.getXid(), sku)).isEqualTo("stale-sku");

        commitAndWait(tx);

        await().atMost(Duration.ofSeconds(60)).until(() -> !refusedConfirms(sku).isEmpty());
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/mysql/sold").asLong()).isZero();
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(10);
    }
}
