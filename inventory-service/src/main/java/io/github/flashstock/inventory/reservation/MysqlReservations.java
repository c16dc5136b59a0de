package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.ReserveLevels;
import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.stock.jdbc.LedgerRow;
import io.github.flashstock.inventory.stock.jdbc.SkuStockMapper;
import io.github.flashstock.inventory.stock.jdbc.SkuStockRow;
import io.github.flashstock.inventory.stock.jdbc.StockLedgerMapper;
import io.github.flashstock.inventory.stock.jdbc.TriedLine;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The MySQL store: reservations taken from a SKU's reserve ({@code sku_stock.reserve_available}) when Redis cannot
 * take them, with the same rules as {@code try.lua}: all or nothing over the lines, the per-user limit, idempotent
 * per (xid, reservation id), a Cancel that came first refuses the Try. Its fence and record are the ledger rows with
 * backend MYSQL, written in the transaction that takes the units. Each method is one transaction in READ COMMITTED,
 * the isolation level the service's connections are made with ({@code spring.datasource.hikari.transaction-isolation};
 * checked at start): a statement after a row lock then sees everything committed before the lock was granted, which
 * the per-user limit relies on, and no gap locks are taken.
 */
@Component
public class MysqlReservations implements org.springframework.beans.factory.InitializingBean {

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    private final TransactionTemplate tx;
    private final javax.sql.DataSource dataSource;
    private final ReserveLevels levels;

    public MysqlReservations(SkuStockMapper skus, StockLedgerMapper ledger, PlatformTransactionManager transactions,
                      javax.sql.DataSource dataSource, ReserveLevels levels) {
        this.levels = levels;
        this.skus = skus;
        this.ledger = ledger;
        this.dataSource = dataSource;
        // the connections' own level (no per-transaction SET, which costs round trips on the hot row)
        this.tx = new TransactionTemplate(transactions);
    }

    /** Refuses to start on connections made with another isolation level than READ COMMITTED. */
    @Override
    public void afterPropertiesSet() throws java.sql.SQLException {
        try (java.sql.Connection c = dataSource.getConnection()) {
            if (c.getTransactionIsolation() != java.sql.Connection.TRANSACTION_READ_COMMITTED) {
                throw new IllegalStateException("the inventory database connections must use READ COMMITTED (set"
                        + " spring.datasource.hikari.transaction-isolation: TRANSACTION_READ_COMMITTED): the MySQL"
                        + " store's per-user limit counts purchases after a row lock and needs to see the latest"
                        + " committed ones; the connections use level " + c.getTransactionIsolation());
            }
        }
    }

    /**
     * The Try, in one transaction: a TRIED row per line, then per line (in SKU order, so that two Tries lock rows in
     * one order) the units out of the reserve and, for a SKU with a per-user limit, the buyer's units in both stores
     * counted after the row lock. Any refusal rolls everything back.
     *
     * @param redisReachable whether Redis answered for this Try (it refused; the reserve is its overflow) or not
     *                       (the MySQL store stands in for it)
     * @throws InventoryDegraded Redis is out of reach, the reserve lacks the units and Redis's share has some: the
     *                           truthful answer is "not now", not "sold out"
     */
    public TryOutcome reserve(TryRequest request, boolean redisReachable) {
        List<StockLine> lines = request.lines().stream().sorted(Comparator.comparing(StockLine::skuId)).toList();
        return tx.execute(status -> {
            if (ledger.insertTried(request.xid(), request.reservationId(), request.branchId(), request.userId(),
                    lines.stream().map(l -> new TriedLine(l.skuId(), l.quantity())).toList()) < lines.size()) {
                status.setRollbackOnly();
                return existing(request);
            }
            for (StockLine line : lines) {
                TryOutcome refusal = take(request, line, redisReachable);
                if (refusal != null) {
                    status.setRollbackOnly();
                    return refusal;
                }
            }
            return new TryOutcome.Reserved();
        });
    }

    /** One line's units out of the reserve; null when taken, the refusal otherwise. */
    private TryOutcome take(TryRequest request, StockLine line, boolean redisReachable) {
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
            SkuStockRow now = skus.find(sku);
            levels.saw(sku, now.reserveAvailable());
            return reserveShort(now, units, redisReachable);
        }
        if (row.perUserLimit() != null) {
            // the row lock is ours now: every purchase committed before it is counted
            long held = ledger.held(sku, request.userId(), request.xid(), request.reservationId());
            if (held + units > row.perUserLimit()) {
                return new TryOutcome.PurchaseLimitExceeded(sku, units, row.perUserLimit(), held);
            }
        }
        return null;
    }

    private static TryOutcome reserveShort(SkuStockRow row, int units, boolean redisReachable) {
        if (!redisReachable && row.redisAvailable() > 0) {
            throw new InventoryDegraded(row.skuId(), "SKU " + row.skuId() + ": Redis is out of reach and the MySQL"
                    + " reserve has " + row.reserveAvailable() + " unit(s), " + units + " requested; the other unit(s)"
                    + " are Redis's; nothing was reserved, try again in a moment");
        }
        return new TryOutcome.InsufficientStock(row.skuId(), units, row.reserveAvailable());
    }

    /** A Try whose rows (some of them) exist: a replay, a reservation Redis holds, or one cancelled first. */
    private TryOutcome existing(TryRequest request) {
        List<LedgerRow> rows = ledger.rowsOfReservation(request.xid(), request.reservationId());
        for (LedgerRow row : rows) {
            boolean ours = request.lines().stream().anyMatch(l -> l.skuId().equals(row.skuId()));
            if (ours && "CANCELLED".equals(row.state())) {
                return new TryOutcome.ReservationCancelled(row.skuId());
            }
        }
        return new TryOutcome.AlreadyReserved();
    }

    /**
     * The Confirm of one line, if the MySQL store holds it: TRIED moves to CONFIRMED and its units are sold.
     *
     * @return empty when the MySQL store does not hold the line (no row, or Redis's)
     */
    Optional<PhaseOutcome> confirm(String xid, String reservationId, StockLine line) {
        return tx.execute(status -> {
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
                default -> new PhaseOutcome.EndedOtherwise(row.quantity());
            });
        });
    }

    /**
     * The Cancel of one line, if the MySQL store holds it: TRIED moves to CANCELLED and its units go back to the
     * reserve. With {@code fence}, a line no store holds gets a CANCELLED row (a tombstone), which refuses a late Try
     * on the MySQL path ({@link PhaseOutcome.NoRecord}); the caller asks for it once Redis has its own tombstone.
     *
     * @return empty when the MySQL store does not hold the line (and, without {@code fence}, there is no row)
     */
    Optional<PhaseOutcome> cancel(String xid, String reservationId, long branchId, String userId, StockLine line,
                                  boolean fence) {
        return tx.execute(status -> {
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
                default -> new PhaseOutcome.EndedOtherwise(row.quantity());
            });
        });
    }
}
