package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.stock.TriedLine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The MySQL store on the real MariaDB: Tries against a SKU's allotment with the rules of {@code try.lua} (all or nothing
 * over the lines, the per-user limit counted over both stores, idempotent, refused after a Cancel that came first),
 * its Confirm and Cancel, 64 threads at once never taking more than the allotment holds or a buyer may have, and
 * concurrent Tries of one SKU sharing transactions ({@link TryGroup}) with every answer as exact as alone.
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

    @Autowired
    AllotmentLevels levels;

    @Autowired
    PlatformTransactionManager transactions;

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
    void aRefusalOfOneAttemptLeavesWhatAnotherAttemptOfTheReservationReserved() {
        String sku = skuWithReserve(10, 5, null);
        String xid = xid();
        StockLine line = new StockLine(sku, 2);
        // the caller's retry (branch 1) reserved; the first attempt (branch 2) is refused late
        assertThat(store.reserve(request(xid, "order-1", "dan", sku, 2), false))
                .isInstanceOf(TryOutcome.Reserved.class);
        store.refuse(xid, "order-1", 2, "dan", line, MysqlReservations.INSUFFICIENT_STOCK);

        assertThat(column(sku, "reserved")).as("the retry's units still reserved").isEqualTo(2);
        assertThat(store.confirm(xid, "order-1", line)).as("the committed order gets its units")
                .contains(new PhaseOutcome.Applied(2));
        assertThat(column(sku, "sold")).isEqualTo(2);

        // a refusal of the attempt that wrote the row gives its units back, and the Confirm then takes nothing
        String again = xid();
        assertThat(store.reserve(request(again, "order-2", "dan", sku, 1), false))
                .isInstanceOf(TryOutcome.Reserved.class);
        store.refuse(again, "order-2", 1, "dan", new StockLine(sku, 1), MysqlReservations.INSUFFICIENT_STOCK);
        assertThat(column(sku, "reserved")).isZero();
        assertThat(store.confirm(again, "order-2", new StockLine(sku, 1))).isPresent().get()
                .isNotInstanceOf(PhaseOutcome.Applied.class);
        assertThat(reserve(sku)).isEqualTo(3);
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

    @Test
    void aGroupDecidesItsTriesInOrderAsEachAloneWouldBeAndWritesThemInOneTransaction() {
        String sku = skuWithReserve(20, 6, 3);
        String old = xid();
        assertThat(store.reserve(request(old, "order-old", "erin", sku, 1), false)).isEqualTo(new TryOutcome.Reserved());
        // one unit alice bought through Redis, as the ledger records it
        ledger.insert(xid(), "order-r", 1, sku, 1, "CONFIRMED", "REDIS", "alice");
        long version = column(sku, "version");
        String alice1 = xid();
        String alice2 = xid();
        String bob = xid();
        String carol = xid();
        String dave = xid();

        List<Optional<TryOutcome>> answers = new TryGroup(jdbc, new ConcurrentHashMap<>(), levels).run(List.of(
                new TryGroup.Attempt(request(alice1, "order-a1", "alice", sku, 2), false, false),
                new TryGroup.Attempt(request(bob, "order-b", "bob", sku, 2), false, false),
                new TryGroup.Attempt(request(alice2, "order-a2", "alice", sku, 1), false, false),
                new TryGroup.Attempt(request(old, "order-old", "erin", sku, 1), false, false),
                new TryGroup.Attempt(request(carol, "order-c", "carol", sku, 2), false, false),
                new TryGroup.Attempt(request(dave, "order-d", "dave", sku, 1), false, false)));

        assertThat(answers).hasSize(6);
        assertThat(answers.get(0)).contains(new TryOutcome.Reserved());
        assertThat(answers.get(1)).contains(new TryOutcome.Reserved());
        // alice holds 1 through Redis and 2 from this group: at the limit
        assertThat(answers.get(2)).contains(new TryOutcome.PurchaseLimitExceeded(sku, 1, 3, 3));
        // a replay is left to the general path, which says what it is
        assertThat(answers.get(3)).isEmpty();
        assertThat(store.reserve(request(old, "order-old", "erin", sku, 1), false))
                .isEqualTo(new TryOutcome.AlreadyReserved());
        // one unit left at carol's turn, Redis out of reach and holding others: not now
        assertThat(answers.get(4).orElseThrow()).isInstanceOfSatisfying(TryOutcome.MysqlStoreBusy.class,
                busy -> assertThat(busy.message()).contains("allotment has 1 unit(s), 2 requested"));
        assertThat(answers.get(5)).contains(new TryOutcome.Reserved());

        assertThat(reserve(sku)).isZero();
        assertThat(column(sku, "reserved")).isEqualTo(6);
        assertThat(column(sku, "version")).as("one update for the group").isEqualTo(version + 1);
        for (String xid : List.of(alice1, bob, dave)) {
            assertThat(jdbc.queryForList("SELECT state, store, user_id, redis_mirrored FROM stock_ledger WHERE xid = ?",
                    xid)).singleElement().satisfies(row -> assertThat(row).containsEntry("state", "TRIED")
                    .containsEntry("store", "MYSQL"));
        }
        assertThat(ledgerRows(alice2) + ledgerRows(carol)).isZero();
    }

    @Test
    void concurrentTriesShareTransactionsAndTheAllotmentAndTheLimitStayExact() throws Exception {
        int limit = 3;
        long allotment = 200;
        String sku = skuWithReserve(1_000, allotment, limit);
        // 480 reservations of 120 buyers, 4 each (1, 2, 1 and 2 units; 3 allowed): a buyer decided by the limit alone
        // ends with 2 or 3 units, 240 at least over all, more than the allotment, which therefore runs out. Every
        // fourth reservation is sent twice (a replay); all shuffled
        List<TryRequest> sent = new ArrayList<>();
        for (int i = 0; i < 480; i++) {
            TryRequest r = request(xid(), "order-" + i, "buyer-" + i % 120, sku, 1 + (i / 120) % 2);
            sent.add(r);
            if (i % 4 == 0) {
                sent.add(r);
            }
        }
        Collections.shuffle(sent, new Random(42));
        Map<String, List<TryOutcome>> outcomes = new ConcurrentHashMap<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Callable<Object>> work = new ArrayList<>();
        for (TryRequest r : sent) {
            work.add(() -> {
                go.await();
                TryOutcome o = store.reserve(r, true);
                outcomes.computeIfAbsent(r.reservationId(), k -> new CopyOnWriteArrayList<>()).add(o);
                return null;
            });
        }
        long commitsBefore = commits();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (Callable<Object> w : work) {
                done.add(pool.submit(w));
            }
            go.countDown();
            for (Future<Object> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long commits = commits() - commitsBefore;

        Map<String, Long> rows = new HashMap<>();
        for (Map<String, Object> row : jdbc.queryForList("SELECT reservation_key, COUNT(*) AS n, SUM(quantity) AS q,"
                + " MIN(state) AS state FROM stock_ledger WHERE sku_id = ? AND store = 'MYSQL' GROUP BY reservation_key",
                sku)) {
            assertThat(((Number) row.get("n")).longValue()).as("rows of %s", row.get("reservation_key")).isOne();
            assertThat(row.get("state")).isEqualTo("TRIED");
            rows.put((String) row.get("reservation_key"), ((Number) row.get("q")).longValue());
        }
        Map<String, Long> heldBy = new HashMap<>();
        for (Map<String, Object> row : jdbc.queryForList("SELECT user_id, SUM(quantity) AS q FROM stock_ledger"
                + " WHERE sku_id = ? GROUP BY user_id", sku)) {
            heldBy.put((String) row.get("user_id"), ((Number) row.get("q")).longValue());
        }
        long reservedUnits = 0;
        long accepted = 0;
        long left = reserve(sku);
        for (TryRequest r : sent.stream().distinct().toList()) {
            List<TryOutcome> answered = outcomes.get(r.reservationId());
            long reserved = answered.stream().filter(o -> o instanceof TryOutcome.Reserved).count();
            assertThat(reserved).as("Reserved answers of %s: %s", r.reservationId(), answered).isLessThanOrEqualTo(1);
            if (answered.contains(new TryOutcome.AlreadyReserved())) {
                assertThat(reserved).as("a replay of %s found a reservation: %s", r.reservationId(), answered)
                        .isOne();
            }
            int units = r.lines().get(0).quantity();
            // exactly one TRIED row for an accepted Try, none for a refused one
            assertThat(rows.get(r.reservationId())).as("row of %s", r.reservationId())
                    .isEqualTo(reserved == 1 ? Long.valueOf(units) : null);
            reservedUnits += reserved * units;
            accepted += reserved;
            for (TryOutcome o : answered) {
                if (o instanceof TryOutcome.PurchaseLimitExceeded refused) {
                    // refused only when the buyer truly held that much (their units only grow in this test)
                    assertThat(refused.alreadyBought() + units).isGreaterThan(limit);
                    assertThat(heldBy.getOrDefault(r.userId(), 0L)).isGreaterThanOrEqualTo(refused.alreadyBought());
                } else if (o instanceof TryOutcome.InsufficientStock refused) {
                    // refused only when the allotment truly lacked the units (it only shrinks in this test)
                    assertThat(refused.available()).isLessThan(units).isGreaterThanOrEqualTo(left);
                } else {
                    assertThat(o).isInstanceOfAny(TryOutcome.Reserved.class, TryOutcome.AlreadyReserved.class);
                }
            }
        }
        assertThat(reservedUnits).isPositive().isLessThanOrEqualTo(allotment);
        assertThat(column(sku, "reserved")).isEqualTo(reservedUnits);
        assertThat(left + reservedUnits).isEqualTo(allotment);
        assertThat(heldBy.values()).allSatisfy(held -> assertThat(held).isLessThanOrEqualTo(limit));
        assertThat(left).as("the allotment ran out").isLessThan(2);
        // alone, the one-trip Try ends each accepted Try with a COMMIT of its own
        assertThat(commits).as("commits for %d Tries, %d accepted", sent.size(), accepted).isLessThan(accepted / 4);
    }

    /** COMMIT statements MariaDB has run so far, over all connections. */
    /**
     * An attempt of a reservation whose insert meets the ledger row of another attempt that is never committed must
     * not be answered "already reserved" (docs/failures.md, "What chaos found"): its order would be committed with
     * its units held nowhere. Here the other attempt's row is the caller's own uncommitted insert, the way a
     * connection handed on in the middle of a transaction would share it.
     */
    @Test
    void aRowNobodyCommittedIsNotAnAnswerOfAlreadyReserved() {
        String sku = skuWithReserve(10, 1, 2);
        String xid = xid();
        TransactionTemplate caller = new TransactionTemplate(transactions);
        TryOutcome[] answer = new TryOutcome[1];

        caller.executeWithoutResult(status -> {
            assertThat(ledger.insertTried(xid, "order-x", 7, "erin", List.of(new TriedLine(sku, 1)))).isEqualTo(1);
            answer[0] = store.reserve(request(xid, "order-x", "erin", sku, 1), false);
            status.setRollbackOnly(); // the other attempt never commits
        });

        assertThat(answer[0]).isInstanceOf(TryOutcome.MysqlStoreBusy.class);
        assertThat(answer[0].code()).isNotIn(TryOutcome.Code.RESERVED, TryOutcome.Code.ALREADY_RESERVED);
        assertThat(ledgerRows(xid)).isZero();
        assertThat(column(sku, "reserved")).isZero();
        // once no row is in the way, the next attempt is decided as usual
        assertThat(store.reserve(request(xid, "order-x", "erin", sku, 1), false)).isEqualTo(new TryOutcome.Reserved());
        assertThat(ledgerRows(xid)).isEqualTo(1);
        assertThat(column(sku, "reserved")).isEqualTo(1);
    }

    /** Many attempts of one reservation at once: one holds the units, and every "yes" is backed by a committed row. */
    @Test
    void concurrentAttemptsOfOneReservationReserveOnceAndEveryYesHasItsRow() throws Exception {
        // attempts meet on every path at once (a group, one trip, the general way): rounds, so the race is run often
        for (int round = 0; round < 8; round++) {
            String sku = skuWithReserve(20, 6, 2);
            String xid = xid();
            List<TryOutcome.Code> codes = together(16, () -> store.reserve(request(xid, "order-many", "fred", sku, 2),
                    false).code());
            assertThat(codes).allMatch(c -> c == TryOutcome.Code.RESERVED || c == TryOutcome.Code.ALREADY_RESERVED
                    || c == TryOutcome.Code.MYSQL_STORE_BUSY);
            assertThat(codes).filteredOn(c -> c == TryOutcome.Code.RESERVED).hasSize(1);
            assertThat(ledgerRows(xid)).isEqualTo(1);
            assertThat(column(sku, "reserved")).isEqualTo(2);
            assertThat(reserve(sku)).isEqualTo(4);
        }
    }

    /**
     * Replays of a reserved Try racing its Cancel and its Confirm on many threads: a replay takes the SKU's row first
     * and then meets the reservation's row, which the phase holds while it waits for the SKU's row; the store sorts
     * that out itself (a deadlock's loser changed nothing and runs again), so every caller gets an answer and the
     * reservation ends once.
     */
    @Test
    void replaysRacingTheReservationsPhaseAllGetAnAnswerAndItEndsOnce() throws Exception {
        for (int round = 0; round < 8; round++) {
            boolean confirm = round % 2 == 0;
            String sku = skuWithReserve(20, 6, null);
            String xid = xid();
            assertThat(store.reserve(request(xid, "order-race", "gina", sku, 2), false).code())
                    .isEqualTo(TryOutcome.Code.RESERVED);
            List<Object> answers = together(12, new Callable<>() {
                private final java.util.concurrent.atomic.AtomicInteger callers =
                        new java.util.concurrent.atomic.AtomicInteger();

                @Override
                public Object call() {
                    if (callers.getAndIncrement() % 4 == 0) {
                        return confirm ? store.confirm(xid, "order-race", new StockLine(sku, 2)).orElseThrow()
                                : store.cancel(xid, "order-race", 1, "gina", new StockLine(sku, 2), true)
                                        .orElseThrow();
                    }
                    List<TryOutcome.Code> codes = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        codes.add(store.reserve(request(xid, "order-race", "gina", sku, 2), false).code());
                    }
                    return codes;
                }
            });
            List<PhaseOutcome> phases = answers.stream().filter(a -> a instanceof PhaseOutcome)
                    .map(a -> (PhaseOutcome) a).toList();
            assertThat(phases).hasSize(3).containsOnlyOnce(new PhaseOutcome.Applied(2))
                    .containsOnly(new PhaseOutcome.Applied(2), new PhaseOutcome.AlreadyApplied(2));
            assertThat(answers.stream().filter(a -> a instanceof List<?>).flatMap(a -> ((List<?>) a).stream()))
                    .allMatch(c -> c == TryOutcome.Code.ALREADY_RESERVED || c == TryOutcome.Code.MYSQL_STORE_BUSY
                            || (!confirm && c == TryOutcome.Code.RESERVATION_CANCELLED));
            assertThat(ledgerRows(xid)).isEqualTo(1);
            assertThat(column(sku, "reserved")).isZero();
            assertThat(column(sku, "sold")).isEqualTo(confirm ? 2 : 0);
            assertThat(reserve(sku)).isEqualTo(confirm ? 4 : 6);
        }
    }

    /** {@code task} on {@code threads} threads released at once: their answers, each failure thrown. */
    private static <T> List<T> together(int threads, Callable<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<T> answers = new ArrayList<>();
            for (Future<T> f : futures) {
                answers.add(f.get());
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private long commits() {
        return Long.parseLong(jdbc.queryForMap("SHOW GLOBAL STATUS LIKE 'Com_commit'").get("Value").toString());
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
