package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The MySQL store on the real MariaDB: Tries against a SKU's allotment with the rules of {@code try.lua} (all or nothing
 * over the lines, the per-user limit counted over both stores, idempotent, refused after a Cancel that came first),
 * its Confirm and Cancel, and 64 threads at once never taking more than the allotment holds or a buyer may have.
 */
class MysqlReservationsIT extends InventoryITSupport {

    @Autowired
    MysqlReservations store;

    @Autowired
    StockHandover handover;

    @Autowired
    StockLedgerMapper ledger;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    TestRestTemplate http;

    private final List<String> skus = new ArrayList<>();

    /** Ends what the test left open, so that no later test (or reconciliation run) meets it as an overdue reservation. */
    @org.junit.jupiter.api.AfterEach
    void cancelWhatIsOpen() {
        for (String sku : skus) {
            for (Map<String, Object> open : jdbc.queryForList("SELECT xid, reservation_key, quantity, user_id FROM"
                    + " stock_ledger WHERE sku_id = ? AND store = 'MYSQL' AND state = 'TRIED'", sku)) {
                store.cancel((String) open.get("xid"), (String) open.get("reservation_key"), 1,
                        (String) open.get("user_id"), new StockLine(sku, ((Number) open.get("quantity")).intValue()),
                        false);
            }
        }
    }

    @Test
    void takesAllOrNothingFromTheReserveAndAReplayTakesNothingMore() {
        String a = skuWithReserve(10, 5, null);
        String b = skuWithReserve(10, 1, null);
        String xid = xid();

        // Redis refused (the allotment is its overflow): the answer is the allotment's
        TryOutcome tooMuch = store.reserve(request(xid, "order-1", "alice", a, 2, b, 2), true);
        // Redis out of reach, which holds B's other units: not now
        assertThat(store.reserve(request(xid, "order-1", "alice", a, 2, b, 2), false))
                .isInstanceOf(TryOutcome.MysqlStoreBusy.class);

        assertThat(tooMuch).isEqualTo(new TryOutcome.InsufficientStock(b, 2, 1));
        assertThat(reserve(a)).isEqualTo(5);
        assertThat(reserve(b)).isEqualTo(1);
        assertThat(ledgerRows(xid)).isZero();

        TryOutcome reserved = store.reserve(request(xid, "order-1", "alice", a, 2, b, 1), false);
        TryOutcome replay = store.reserve(request(xid, "order-1", "alice", a, 2, b, 1), false);

        assertThat(reserved).isEqualTo(new TryOutcome.Reserved());
        assertThat(replay).isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(reserve(a)).isEqualTo(3);
        assertThat(reserve(b)).isZero();
        assertThat(column(a, "reserved")).isEqualTo(2);
        assertThat(column(b, "reserved")).isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT store, state, user_id, redis_mirrored FROM stock_ledger WHERE xid = ?",
                xid)).hasSize(2).allSatisfy(row -> assertThat(row).containsEntry("store", "MYSQL")
                .containsEntry("state", "TRIED").containsEntry("user_id", "alice"));
        // Redis's share of the SKU is untouched
        assertThat(new InventoryClient(http).stock(a).at("/redis/available").asLong()).isEqualTo(5);
    }

    @Test
    void confirmSellsFromTheReserveCancelGivesBackAndEachEndsOnce() {
        String sku = skuWithReserve(20, 10, null);
        String paid = xid();
        String abandoned = xid();
        store.reserve(request(paid, "order-p", "bob", sku, 3), false);
        store.reserve(request(abandoned, "order-a", "bob", sku, 2), false);

        assertThat(store.confirm(paid, "order-p", new StockLine(sku, 3))).contains(new PhaseOutcome.Applied(3));
        assertThat(store.confirm(paid, "order-p", new StockLine(sku, 3))).contains(new PhaseOutcome.AlreadyApplied(3));
        assertThat(store.cancel(abandoned, "order-a", 1, "bob", new StockLine(sku, 2), false))
                .contains(new PhaseOutcome.Applied(2));
        assertThat(store.cancel(abandoned, "order-a", 1, "bob", new StockLine(sku, 2), false))
                .contains(new PhaseOutcome.AlreadyApplied(2));
        assertThat(store.confirm(abandoned, "order-a", new StockLine(sku, 2)))
                .contains(new PhaseOutcome.EndedOtherwise(2));
        assertThat(store.cancel(paid, "order-p", 1, "bob", new StockLine(sku, 3), false))
                .contains(new PhaseOutcome.EndedOtherwise(3));

        assertThat(reserve(sku)).isEqualTo(7);
        assertThat(column(sku, "reserved")).isZero();
        assertThat(column(sku, "sold")).isEqualTo(3);
        assertThat(column(sku, "allotment_sold")).isEqualTo(3);
        // a line the MySQL store does not hold is not its to end
        assertThat(store.confirm(xid(), "order-x", new StockLine(sku, 1))).isEmpty();
        assertThat(store.cancel(xid(), "order-x", 1, "bob", new StockLine(sku, 1), false)).isEmpty();
    }

    @Test
    void aCancelThatCameFirstLeavesATombstoneThatRefusesTheLateTry() {
        String sku = skuWithReserve(10, 5, null);
        String xid = xid();

        assertThat(store.cancel(xid, "order-1", 1, "carol", new StockLine(sku, 2), true))
                .contains(new PhaseOutcome.NoRecord());
        TryOutcome late = store.reserve(request(xid, "order-1", "carol", sku, 2), false);

        assertThat(late).isEqualTo(new TryOutcome.ReservationCancelled(sku));
        assertThat(reserve(sku)).isEqualTo(5);
        assertThat(column(sku, "reserved")).isZero();
    }

    @Test
    void thePerUserLimitCountsWhatTheBuyerHoldsInBothStores() {
        String sku = skuWithReserve(20, 10, 3);
        // two units bought through Redis, as the ledger records them
        ledger.insert(xid(), "order-r", 1, sku, 2, "CONFIRMED", "REDIS", "dave");

        TryOutcome two = store.reserve(request(xid(), "order-2", "dave", sku, 2), false);
        TryOutcome one = store.reserve(request(xid(), "order-1", "dave", sku, 1), false);
        TryOutcome another = store.reserve(request(xid(), "order-3", "dave", sku, 1), false);

        assertThat(two).isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 2, 3, 2));
        assertThat(one).isEqualTo(new TryOutcome.Reserved());
        assertThat(another).isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 1, 3, 3));
        assertThat(reserve(sku)).isEqualTo(9);
    }

    @Test
    void whenTheReserveIsShortWhileRedisIsOutOfReachTheAnswerIsNotNowRatherThanSoldOut() {
        String sku = skuWithReserve(10, 1, null);

        assertThat(store.reserve(request(xid(), "order-1", "erin", sku, 2), false))
                .isInstanceOfSatisfying(TryOutcome.MysqlStoreBusy.class, busy ->
                        assertThat(busy.message()).contains("Redis is out of reach"));
        // Redis answered and refused: the allotment was its overflow, and both are short
        assertThat(store.reserve(request(xid(), "order-2", "erin", sku, 2), true))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 2, 1));
        assertThat(reserve(sku)).isEqualTo(1);
        assertThat(column(sku, "reserved")).isZero();
    }

    @Test
    void sixtyFourThreadsNeverTakeMoreThanTheReserveHoldsNorMoreThanABuyerMayHave() throws Exception {
        String sku = skuWithReserve(1_000, 100, 3);
        int users = 40;
        ExecutorService pool = Executors.newFixedThreadPool(64);
        Map<String, AtomicLong> reservedBy = new ConcurrentHashMap<>();
        AtomicLong reservedUnits = new AtomicLong();
        try {
            List<Callable<Object>> work = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String user = "user-" + i % users;
                int units = 1 + i % 2;
                String xid = xid();
                String order = "order-" + i;
                work.add(() -> {
                    TryOutcome outcome = store.reserve(request(xid, order, user, sku, units), true);
                    if (outcome instanceof TryOutcome.Reserved) {
                        reservedUnits.addAndGet(units);
                        reservedBy.computeIfAbsent(user, u -> new AtomicLong()).addAndGet(units);
                    } else {
                        assertThat(outcome).isInstanceOfAny(TryOutcome.PurchaseLimitExceeded.class,
                                TryOutcome.InsufficientStock.class);
                    }
                    return null;
                });
            }
            for (Future<Object> f : pool.invokeAll(work)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(reservedUnits.get()).isPositive().isLessThanOrEqualTo(100);
        assertThat(reservedBy.values()).allSatisfy(held -> assertThat(held.get()).isLessThanOrEqualTo(3));
        assertThat(column(sku, "reserved")).isEqualTo(reservedUnits.get());
        assertThat(reserve(sku) + column(sku, "reserved")).isEqualTo(100);
        assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = ?"
                + " AND store = 'MYSQL' AND state = 'TRIED'", Long.class, sku)).isEqualTo(reservedUnits.get());
        assertThat(jdbc.queryForObject("SELECT MAX(held) FROM (SELECT SUM(quantity) AS held FROM stock_ledger"
                + " WHERE sku_id = ? GROUP BY user_id) h", Long.class, sku)).isLessThanOrEqualTo(3);
    }

    /** A SKU of {@code stocked} units, {@code reserve} of them moved to the MySQL store's allotment by a handover. */
    private String skuWithReserve(long stocked, long reserve, Integer perUserLimit) {
        String sku = new InventoryClient(http).skuWith(stocked, perUserLimit, 1);
        skus.add(sku);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, reserve, "op-" + UUID.randomUUID(),
                "test")).isInstanceOf(StockHandover.Result.Done.class);
        return sku;
    }

    private static TryRequest request(String xid, String reservationId, String user, Object... skuAndQuantity) {
        List<StockLine> lines = new ArrayList<>();
        for (int i = 0; i < skuAndQuantity.length; i += 2) {
            lines.add(new StockLine((String) skuAndQuantity[i], (Integer) skuAndQuantity[i + 1]));
        }
        return new TryRequest(xid, reservationId, 1, user, lines);
    }

    private long reserve(String sku) {
        return column(sku, "allotment_available");
    }

    private long column(String sku, String column) {
        return jdbc.queryForObject("SELECT " + column + " FROM sku_stock WHERE sku_id = ?", Long.class, sku);
    }

    private long ledgerRows(String xid) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE xid = ?", Long.class, xid);
    }

    private static String xid() {
        return "127.0.0.1:8091:" + UUID.randomUUID();
    }
}
