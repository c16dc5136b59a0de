package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.Deadlocks;
import io.github.flashstock.inventory.stock.LedgerRow;
import io.github.flashstock.inventory.stock.OneTrip;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.stock.TriedLine;
import io.github.flashstock.support.Coalescer;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The MySQL store: reservations taken from a SKU's allotment ({@code sku_stock.allotment_available}) when Redis cannot
 * take them, with the same rules as {@code try.lua}: all or nothing over the lines, the per-user limit, idempotent
 * per (xid, reservation id), a Cancel that came first refuses the Try. Its fence and record are the ledger rows with
 * store MYSQL, written in the transaction that takes the units. Each method is one transaction in READ COMMITTED,
 * the isolation level the service's connections are made with ({@code spring.datasource.hikari.transaction-isolation};
 * checked at start): a statement after a row lock then sees everything committed before the lock was granted, which
 * the per-user limit relies on, and no gap locks are taken.
 *
 * <p>One-line Tries of one SKU that arrive together share a transaction ({@link TryGroup}), gathered by a
 * {@link Coalescer} per SKU ({@link MysqlStoreCoalescing}: no timer, at most {@code in-flight} transactions under way
 * per SKU, at most {@code max-batch} Tries in one); a Try that finds none under way runs alone, as does every Try of
 * several lines. A group whose transaction fails changes nothing and each of its Tries runs again alone. The sizes
 * of the groups are {@code inventory.mysql-store.batch.size}; the Tries waiting for one,
 * {@code inventory.mysql-store.waiting}.
 *
 * <p>Lock order: a Try takes its SKUs' rows (in SKU order) first, then writes ledger rows; a Confirm or Cancel takes
 * the reservation's ledger row first. The two meet only over one reservation (a replay racing its own phase); the
 * transaction that loses the deadlock changed nothing and runs again ({@link #DEADLOCKS}).
 */
@Component
public class MysqlReservations implements org.springframework.beans.factory.InitializingBean, DisposableBean {

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    /** SQLSTATE of a unique key violation. */
    private static final String DUPLICATE_KEY = "23000";

    /** {@link #inOneOrTwoTrips}, no limit: the row is written only when the update took the units (ROW_COUNT()). */
    private static final String ONE_TRIP = "START TRANSACTION;"
            + " UPDATE sku_stock SET reserved = reserved + ?, allotment_available = allotment_available - ?,"
            + " version = version + 1 WHERE sku_id = ? AND allotment_available >= ? AND per_user_limit IS NULL"
            + " AND closed_at IS NULL;"
            + " INSERT INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id,"
            + " redis_mirrored) SELECT ?, ?, ?, ?, ?, 'TRIED', 'MYSQL', ?, 0 FROM DUAL WHERE ROW_COUNT() = 1;"
            + " COMMIT;"
            + " SELECT per_user_limit FROM sku_stock WHERE sku_id = ?";

    /** {@link #inOneOrTwoTrips} with a limit: the same, then the limit and the buyer's units; no commit yet. */
    private static final String LIMITED_TRIP = "START TRANSACTION;"
            + " UPDATE sku_stock SET reserved = reserved + ?, allotment_available = allotment_available - ?,"
            + " version = version + 1 WHERE sku_id = ? AND allotment_available >= ? AND closed_at IS NULL;"
            + " INSERT INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id,"
            + " redis_mirrored) SELECT ?, ?, ?, ?, ?, 'TRIED', 'MYSQL', ?, 0 FROM DUAL WHERE ROW_COUNT() = 1;"
            + " SELECT per_user_limit, (SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = ?"
            + " AND user_id = ? AND state IN ('TRIED', 'CONFIRMED') AND NOT (xid = ? AND reservation_key = ?))"
            + " FROM sku_stock WHERE sku_id = ?";

    /** SKUs seen with a per-user limit: their one-line Tries go the limited way at once. */
    private final java.util.Map<String, Boolean> limited = new java.util.concurrent.ConcurrentHashMap<>();

    private final TransactionTemplate tx;
    private final TransactionTemplate committedReads;
    private final JdbcTemplate jdbc;
    private final javax.sql.DataSource dataSource;
    private final AllotmentLevels levels;
    private final Coalescer<TryGroup.Attempt, Optional<TryOutcome>> coalescer;
    /** Runs again a transaction that lost a deadlock (rolled back whole: it changed nothing). */
    private final Retry deadlocks;

    /** The resilience4j retry {@link #deadlocks} ({@link Deadlocks#retry}). */
    public static final String DEADLOCKS = "mysql-store-deadlocks";

    public MysqlReservations(SkuStockMapper skus, StockLedgerMapper ledger, PlatformTransactionManager transactions,
                      javax.sql.DataSource dataSource, AllotmentLevels levels, MysqlStoreCoalescing coalescing,
                      MeterRegistry meters, RetryRegistry retries) {
        this.deadlocks = Deadlocks.retry(retries, DEADLOCKS);
        this.levels = levels;
        this.skus = skus;
        this.ledger = ledger;
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        // the connections' own level (no per-transaction SET, which costs round trips on the hot row)
        this.tx = new TransactionTemplate(transactions);
        // the rows a Try met, as committed: apart from any transaction the caller's thread is in
        this.committedReads = new TransactionTemplate(transactions);
        this.committedReads.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        TryGroup groups = new TryGroup(jdbc, limited, levels);
        DistributionSummary sizes = DistributionSummary.builder("inventory.mysql-store.batch.size")
                .description("one-line Tries of one SKU decided in one transaction of the MySQL store")
                .register(meters);
        this.coalescer = new Coalescer<>("the MySQL store's Try coalescer", "mysql-store-try",
                coalescing.gathering(),
                attempts -> attempts.size() == 1 ? List.of(Optional.of(alone(attempts.get(0))))
                        : groups.run(attempts),
                attempt -> attempt.line().skuId(), e -> e instanceof DataAccessResourceFailureException,
                (attempt, maxWait) -> new QueryTimeoutException("Try of reservation "
                        + attempt.request().reservationId() + " waited longer than " + maxWait
                        + " for the MySQL store"),
                sizes::record);
        Gauge.builder("inventory.mysql-store.waiting", coalescer, Coalescer::waiting)
                .description("one-line Tries waiting for a transaction of the MySQL store")
                .register(meters);
    }

    /**
     * Refuses to start on connections made with another isolation level than READ COMMITTED, or that cannot send
     * several statements at once.
     */
    @Override
    public void afterPropertiesSet() throws SQLException {
        try (java.sql.Connection c = dataSource.getConnection()) {
            if (c.getTransactionIsolation() != java.sql.Connection.TRANSACTION_READ_COMMITTED) {
                throw new IllegalStateException("the inventory database connections must use READ COMMITTED (set"
                        + " spring.datasource.hikari.transaction-isolation: TRANSACTION_READ_COMMITTED): the MySQL"
                        + " store's per-user limit counts purchases after a row lock and needs to see the latest"
                        + " committed ones; the connections use level " + c.getTransactionIsolation());
            }
            try (Statement s = c.createStatement()) {
                s.execute("SELECT 1; SELECT 2");
            } catch (SQLException e) {
                throw new IllegalStateException("the inventory database connections must allow several statements"
                        + " in one request (set spring.datasource.hikari.data-source-properties.allowMultiQueries:"
                        + " true): the MySQL store's Try sends its statements and the commit together", e);
            }
        }
    }

    /**
     * The Try. A one-line Try outside a caller's transaction goes with the others of its SKU that arrive meanwhile
     * ({@link TryGroup}); the rest run alone: one line in one or two trips ({@link #inOneOrTwoTrips}), else the
     * general way ({@link #general}). Either way each Try is decided all or nothing, as if alone.
     *
     * @param redisReachable whether Redis answered for this Try (it refused; the allotment is its overflow) or not
     *                       (the MySQL store stands in for it)
     * @param limitCounted   whether Redis counted the buyer's units towards the limit before ({@code lua/book.lua}):
     *                       then that one count decided the limit, and this store takes the stock only
     * @return among the refusals {@link TryOutcome.MysqlStoreBusy} when Redis is out of reach, the allotment lacks
     *         the units and Redis's share has some: the truthful answer is "not now", not "sold out"
     */
    public TryOutcome reserve(TryRequest request, boolean redisReachable) {
        return reserve(request, redisReachable, false);
    }

    public TryOutcome reserve(TryRequest request, boolean redisReachable, boolean limitCounted) {
        TryGroup.Attempt attempt = new TryGroup.Attempt(request, redisReachable, limitCounted);
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            // inside the caller's transaction: its own statements only, and a deadlock ends that transaction, which
            // only the caller can run again
            return alone(attempt);
        }
        try {
            return deadlocks.executeSupplier(() -> request.lines().size() > 1 ? alone(attempt)
                    : coalescer.submit(attempt).orElseGet(() -> general(request, redisReachable, limitCounted)));
        } catch (RuntimeException e) {
            if (!Deadlocks.lost(e)) {
                throw e;
            }
            String sku = request.lines().get(0).skuId();
            return new TryOutcome.MysqlStoreBusy(sku, "SKU " + sku + ": the MySQL store's rows of reservation "
                    + request.reservationId() + " are locked by its Confirm or Cancel under way; this attempt reserved"
                    + " nothing, try again in a moment");
        }
    }

    /** {@code work}, run again if it lost a deadlock, unless it runs in the caller's transaction (which that ended). */
    private <T> T runningAgainIfDeadlocked(java.util.function.Supplier<T> work) {
        return TransactionSynchronizationManager.isActualTransactionActive() ? work.get()
                : deadlocks.executeSupplier(work);
    }

    /** One Try by itself: one line in one or two trips if it can, else the general way. */
    private TryOutcome alone(TryGroup.Attempt attempt) {
        TryRequest request = attempt.request();
        if (request.lines().size() == 1) {
            Optional<TryOutcome> quick = inOneOrTwoTrips(request, attempt.limitCounted());
            if (quick.isPresent()) {
                return quick.get();
            }
        }
        return general(request, attempt.redisReachable(), attempt.limitCounted());
    }

    /**
     * The Try, in one transaction: the lines' SKU rows locked (in SKU order, so that two Tries lock rows in one
     * order, and ahead of any ledger row, as the other ways take them), a TRIED row per line, then per line the units
     * out of the allotment and, for a SKU with a per-user limit, the buyer's units in both stores counted after the
     * row lock. Any refusal rolls everything back; a reservation with rows already is answered by
     * them.
     */
    private TryOutcome general(TryRequest request, boolean redisReachable, boolean limitCounted) {
        List<StockLine> lines = request.lines().stream().sorted(Comparator.comparing(StockLine::skuId)).toList();
        TryOutcome outcome = tx.execute(status -> {
            for (StockLine line : lines) {
                skus.lock(line.skuId()); // the SKUs' rows first, the ledger's after, as every Try of this store
            }
            if (ledger.insertTried(request.xid(), request.reservationId(), request.branchId(), request.userId(),
                    lines.stream().map(l -> new TriedLine(l.skuId(), l.quantity())).toList()) < lines.size()) {
                status.setRollbackOnly();
                return null; // rows of the reservation exist: answered by what they say once committed, below
            }
            for (StockLine line : lines) {
                TryOutcome refusal = take(request, line, redisReachable, limitCounted);
                if (refusal != null) {
                    status.setRollbackOnly();
                    return refusal;
                }
            }
            return new TryOutcome.Reserved();
        });
        if (outcome != null) {
            return outcome;
        }
        // read in autocommit (no COMMIT to pay on the replay path), or apart from the caller's own transaction
        return TransactionSynchronizationManager.isActualTransactionActive()
                ? committedReads.execute(status -> existing(request)) : existing(request);
    }

    /**
     * The common Try, one line, without the general way's round trips, which the SKU's row lock would otherwise be
     * held across (on the hot row, that time is the MySQL store's throughput). The statements go together in one
     * request ({@code allowMultiQueries}): the units out of the allotment, the TRIED row only if they were taken
     * ({@code ROW_COUNT()}), and then
     * <ul>
     *   <li>for a SKU without a per-user limit, the commit, in the same request: one round trip, the row locked only
     *       while the server runs them;</li>
     *   <li>for a SKU with one, the buyer's units in both stores, counted after the row lock (READ COMMITTED: every
     *       purchase committed before it), and the commit or the rollback in a second request.</li>
     * </ul>
     * Which SKUs have a limit is remembered from the answers (a SKU whose limit went away meanwhile still gets a
     * correct answer, through the limited way). Anything else (no such SKU, too few units, a row of the reservation
     * already there: its insert fails on the unique key and the transaction is rolled back) leaves nothing changed
     * and goes the general way, which says what it is.
     *
     * @return the outcome, or empty for the general way
     */
    private Optional<TryOutcome> inOneOrTwoTrips(TryRequest request, boolean limitCounted) {
        StockLine line = request.lines().get(0);
        boolean withLimit = limited.containsKey(line.skuId());
        if (withLimit && limitCounted) {
            return Optional.empty(); // the general way takes the stock without counting the buyer again
        }
        return jdbc.execute((ConnectionCallback<Optional<TryOutcome>>) c -> {
            if (!c.getAutoCommit()) {
                return Optional.empty(); // inside a transaction of someone else's: its own statements only
            }
            try (PreparedStatement ps = c.prepareStatement(withLimit ? LIMITED_TRIP : ONE_TRIP)) {
                int i = 1;
                ps.setInt(i++, line.quantity());
                ps.setInt(i++, line.quantity());
                ps.setString(i++, line.skuId());
                ps.setInt(i++, line.quantity());
                ps.setString(i++, request.xid());
                ps.setString(i++, request.reservationId());
                ps.setLong(i++, request.branchId());
                ps.setString(i++, line.skuId());
                ps.setInt(i++, line.quantity());
                ps.setString(i++, request.userId());
                if (withLimit) {
                    ps.setString(i++, line.skuId());
                    ps.setString(i++, request.userId());
                    ps.setString(i++, request.xid());
                    ps.setString(i++, request.reservationId());
                }
                ps.setString(i, line.skuId());
                ps.execute();
                // START TRANSACTION, UPDATE, INSERT (, COMMIT), SELECT
                int taken = nextCount(ps);
                int written = nextCount(ps);
                if (!withLimit) {
                    nextCount(ps);
                }
                ps.getMoreResults();
                Long limit = null;
                long held = 0;
                try (ResultSet rs = ps.getResultSet()) {
                    if (rs != null && rs.next()) {
                        limit = rs.getObject(1) == null ? null : rs.getLong(1);
                        held = withLimit ? rs.getLong(2) : 0;
                    }
                }
                while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                    // read to the end, so the connection is clean for the next statement
                }
                if (!withLimit) {
                    if (taken == 1 && written == 1) {
                        return Optional.of(new TryOutcome.Reserved());
                    }
                    if (limit != null) {
                        limited.put(line.skuId(), Boolean.TRUE); // refused for its limit: the limited way from now on
                        return Optional.empty();
                    }
                    return Optional.empty();
                }
                if (taken != 1 || written != 1) {
                    OneTrip.end(c, "ROLLBACK");
                    return Optional.empty();
                }
                if (limit == null) {
                    limited.remove(line.skuId());
                } else if (held + line.quantity() > limit) {
                    OneTrip.end(c, "ROLLBACK");
                    return Optional.of(new TryOutcome.PurchaseLimitExceeded(line.skuId(), line.quantity(), limit, held));
                }
                OneTrip.end(c, "COMMIT");
                return Optional.of(new TryOutcome.Reserved());
            } catch (SQLException e) {
                // the reservation's row exists (a replay, a Cancel that came first, Redis's own row): nothing stays
                OneTrip.end(c, "ROLLBACK");
                if (DUPLICATE_KEY.equals(e.getSQLState())) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    /** The next statement's update count, after the one before it. */
    private static int nextCount(PreparedStatement ps) throws SQLException {
        ps.getMoreResults();
        return ps.getUpdateCount();
    }

    /** One line's units out of the allotment; null when taken, the refusal otherwise. */
    private TryOutcome take(TryRequest request, StockLine line, boolean redisReachable, boolean limitCounted) {
        String sku = line.skuId();
        int units = line.quantity();
        if (skus.takeFromReserveWithoutLimit(sku, units) == 1) {
            return null;
        }
        SkuStockRow row = skus.find(sku);
        if (row == null) {
            return new TryOutcome.UnknownSku(sku);
        }
        if (skus.takeFromReserve(sku, units) != 1) {
            if (skus.closedAt(sku) != null) {
                return new TryOutcome.SaleClosed(sku);
            }
            SkuStockRow now = skus.find(sku);
            levels.saw(sku, now.allotmentAvailable());
            return reserveShort(now, units, redisReachable);
        }
        if (row.perUserLimit() != null && !limitCounted) {
            // the row lock is ours now: every purchase committed before it is counted
            long held = ledger.held(sku, request.userId(), request.xid(), request.reservationId());
            if (held + units > row.perUserLimit()) {
                return new TryOutcome.PurchaseLimitExceeded(sku, units, row.perUserLimit(), held);
            }
        }
        return null;
    }

    private static TryOutcome reserveShort(SkuStockRow row, int units, boolean redisReachable) {
        return reserveShort(row.skuId(), row.allotmentAvailable(), row.redisAvailable(), units, redisReachable);
    }

    /** The refusal of a Try whose SKU's allotment has fewer than {@code units} units: not now, or sold out. */
    static TryOutcome reserveShort(String sku, long allotmentAvailable, long redisAvailable, int units,
                                   boolean redisReachable) {
        if (!redisReachable && redisAvailable > 0) {
            return new TryOutcome.MysqlStoreBusy(sku, "SKU " + sku + ": Redis is out of reach and"
                    + " the MySQL store's allotment has " + allotmentAvailable + " unit(s), " + units
                    + " requested; the other unit(s) are Redis's; nothing was reserved, try again in a moment");
        }
        return new TryOutcome.InsufficientStock(sku, units, allotmentAvailable);
    }

    /**
     * A Try whose rows (some of them) exist: a replay, a reservation Redis holds, or one cancelled first. Read after
     * the Try's transaction has ended, outside any other, so only committed rows count: the insert that met them may
     * have met a row nobody committed yet (another attempt of the reservation still in flight, or one that will be
     * rolled back), and "already reserved" is only true of a row that stays. A line without a committed row is
     * answered "not now" ({@link TryOutcome.MysqlStoreBusy}): nothing was reserved by this attempt, and the caller
     * retries.
     */
    private TryOutcome existing(TryRequest request) {
        List<LedgerRow> rows = ledger.rowsOfReservation(request.xid(), request.reservationId());
        for (LedgerRow row : rows) {
            Optional<StockLine> ours = request.lines().stream().filter(l -> l.skuId().equals(row.skuId())).findFirst();
            if (ours.isPresent() && "CANCELLED".equals(row.state())) {
                return new TryOutcome.ReservationCancelled(row.skuId());
            }
            if (ours.isPresent() && "REFUSED".equals(row.state())) {
                return refusedAgain(request, ours.get());
            }
        }
        for (StockLine line : request.lines()) {
            if (rows.stream().noneMatch(r -> r.skuId().equals(line.skuId()))) {
                return new TryOutcome.MysqlStoreBusy(line.skuId(), "SKU " + line.skuId() + ": another attempt of"
                        + " reservation " + request.reservationId() + " holds its ledger row and has not committed"
                        + " it; nothing was reserved by this one, try again in a moment");
            }
        }
        return new TryOutcome.AlreadyReserved();
    }

    /**
     * A replay of a Try whose refusal this store recorded: refused again, as it stands now (the allotment's units, the
     * buyer's limit); a refusal recorded while the SKU was stale says so again.
     */
    private TryOutcome refusedAgain(TryRequest request, StockLine line) {
        String refusal = ledger.rowsOfReservation(request.xid(), request.reservationId()).stream()
                .filter(r -> r.skuId().equals(line.skuId())).findFirst().map(LedgerRow::refusal).orElse("");
        return refusedAsItStands(request.xid(), request.reservationId(), request.userId(), line, refusal);
    }

    /**
     * The refusal a REFUSED row of this store names ({@code refusal}), with the figures as they stand now: the
     * allotment's units, or the buyer's limit and what the buyer holds besides this reservation.
     */
    TryOutcome refusedAsItStands(String xid, String reservationId, String userId, StockLine line, String refusal) {
        SkuStockRow row = skus.find(line.skuId());
        if (row == null) {
            return new TryOutcome.UnknownSku(line.skuId());
        }
        return switch (refusal == null ? "" : refusal) {
            case STALE_SKU -> new TryOutcome.StaleSku(line.skuId());
            case SALE_CLOSED -> new TryOutcome.SaleClosed(line.skuId());
            case PURCHASE_LIMIT_EXCEEDED -> new TryOutcome.PurchaseLimitExceeded(line.skuId(), line.quantity(),
                    row.perUserLimit() == null ? 0 : row.perUserLimit(),
                    ledger.held(line.skuId(), userId, xid, reservationId));
            default -> new TryOutcome.InsufficientStock(line.skuId(), line.quantity(), row.allotmentAvailable());
        };
    }

    /** The refusals a REFUSED ledger row names. */
    static final String INSUFFICIENT_STOCK = "insufficient-stock";
    static final String PURCHASE_LIMIT_EXCEEDED = "purchase-limit-exceeded";
    static final String STALE_SKU = "stale-sku";
    static final String SALE_CLOSED = "sale-closed";

    /** The name a REFUSED row gives this refusal. */
    static String refusalName(TryOutcome.Refusal refusal) {
        if (refusal instanceof TryOutcome.PurchaseLimitExceeded) {
            return PURCHASE_LIMIT_EXCEEDED;
        }
        if (refusal instanceof TryOutcome.SaleClosed) {
            return SALE_CLOSED;
        }
        return refusal instanceof TryOutcome.StaleSku ? STALE_SKU : INSUFFICIENT_STOCK;
    }

    /**
     * Records in this store that the reservation's Try was refused, on one SKU: a REFUSED row, unless the reservation
     * has a row of the SKU already; a TRIED row of this store written by the refused attempt itself (its branch: an
     * earlier slot group of the same Try took units from the allotment) is cancelled, its units back in the
     * allotment. A TRIED row another attempt of the reservation wrote (the caller retried it in the same transaction
     * under a new branch, and that one reserved) is not this refusal's: the transaction's own phase ends it. A Confirm
     * that meets the REFUSED row takes nothing.
     */
    void refuse(String xid, String reservationId, long branchId, String userId, StockLine line, String refusal) {
        runningAgainIfDeadlocked(() -> tx.execute(status -> {
            LedgerRow row = ledger.lock(xid, reservationId, line.skuId());
            if (row == null) {
                ledger.insertRefused(xid, reservationId, branchId, line.skuId(), line.quantity(), "MYSQL", userId,
                        refusal);
            } else if (row.heldByMysql() && row.tried() && row.branchId() != null && row.branchId() == branchId) {
                ledger.endHeld(row.id(), "CANCELLED");
                if (skus.releaseReserved(row.skuId(), row.quantity()) != 1) {
                    throw new IllegalStateException("sku_stock of " + row.skuId() + " holds fewer reserved units than"
                            + " reservation " + reservationId + " of the MySQL store");
                }
            }
            return null;
        }));
    }

    /**
     * The Confirm of one line, if the MySQL store holds it: TRIED moves to CONFIRMED and its units are sold.
     *
     * @return empty when the MySQL store does not hold the line (no row, or Redis's)
     */
    Optional<PhaseOutcome> confirm(String xid, String reservationId, StockLine line) {
        return runningAgainIfDeadlocked(() -> tx.execute(status -> {
            LedgerRow row = ledger.lock(xid, reservationId, line.skuId());
            if (row == null || !row.heldByMysql()) {
                return Optional.<PhaseOutcome>empty();
            }
            return Optional.of(switch (row.state()) {
                case "TRIED" -> {
                    ledger.endHeld(row.id(), "CONFIRMED");
                    if (skus.sellReserved(row.skuId(), row.quantity()) != 1) {
                        throw new IllegalStateException("sku_stock of " + row.skuId() + " holds fewer reserved"
                                + " units than reservation " + reservationId + " of the MySQL store");
                    }
                    yield new PhaseOutcome.Applied(row.quantity());
                }
                case "CONFIRMED" -> new PhaseOutcome.AlreadyApplied(row.quantity());
                case "REFUSED" -> new PhaseOutcome.Refused();
                default -> new PhaseOutcome.EndedOtherwise(row.quantity());
            });
        }));
    }

    /**
     * The Cancel of one line, if the MySQL store holds it: TRIED moves to CANCELLED and its units go back to the
     * reserve. With {@code fence}, a line no store holds gets a CANCELLED row (a tombstone), which refuses a late Try
     * on the MySQL store ({@link PhaseOutcome.NoRecord}); the caller asks for it once Redis has its own tombstone.
     *
     * @return empty when the MySQL store does not hold the line (and, without {@code fence}, there is no row), or,
     *         without {@code fence}, when its row is the refusal of a stale SKU (Redis must be asked first)
     */
    Optional<PhaseOutcome> cancel(String xid, String reservationId, long branchId, String userId, StockLine line,
                                  boolean fence) {
        return runningAgainIfDeadlocked(() -> tx.execute(status -> {
            LedgerRow row = ledger.lock(xid, reservationId, line.skuId());
            if (row == null && fence) {
                if (ledger.insert(xid, reservationId, branchId, line.skuId(), line.quantity(), "CANCELLED", "MYSQL",
                        userId) == 1) {
                    return Optional.<PhaseOutcome>of(new PhaseOutcome.NoRecord());
                }
                row = ledger.lock(xid, reservationId, line.skuId()); // written meanwhile
            }
            if (row == null || !row.heldByMysql()) {
                return Optional.<PhaseOutcome>empty();
            }
            if (!fence && "REFUSED".equals(row.state()) && STALE_SKU.equals(row.refusal())) {
                // a stale SKU's refusal is not mirrored to Redis, where an earlier slot group of the same Try, or a
                // call of it that landed late, may hold units: this Cancel waits until Redis can be asked
                return Optional.<PhaseOutcome>empty();
            }
            return Optional.of(switch (row.state()) {
                case "TRIED" -> {
                    ledger.endHeld(row.id(), "CANCELLED");
                    if (skus.releaseReserved(row.skuId(), row.quantity()) != 1) {
                        throw new IllegalStateException("sku_stock of " + row.skuId() + " holds fewer reserved"
                                + " units than reservation " + reservationId + " of the MySQL store");
                    }
                    yield new PhaseOutcome.Applied(row.quantity());
                }
                case "CANCELLED" -> new PhaseOutcome.AlreadyApplied(row.quantity());
                case "REFUSED" -> new PhaseOutcome.AlreadyApplied(0);
                default -> new PhaseOutcome.EndedOtherwise(row.quantity());
            });
        }));
    }

    /** Stops the coalescer's senders; Tries still waiting fail at once. */
    @Override
    public void destroy() {
        coalescer.close();
    }
}
