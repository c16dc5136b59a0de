package io.github.flashstock.inventory.stock;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The durable record in MySQL of what the second phases of reservations Redis held did (one ledger row per (xid,
 * reservation, SKU), and the SKU's sold count) and of restocks (one row per operation id, and the SKU's stocked
 * count). Each method is one transaction and idempotent: the ledger's and the operations' unique keys make a replay
 * a no-op.
 *
 * <p>A reservation can, rarely, be held by both stores: its Try ran on the MySQL store, its answer was lost, and the
 * caller's retry reached an instance whose Redis took it too. The phase that reaches Redis first decides: its MySQL
 * step finds the MySQL store's row, gives the MySQL store's units back to the allotment and makes the row Redis's.
 * ({@code lua/mirror.lua} settles the other order: the MySQL store's phase first, Redis's duplicate released; and when
 * both stores confirmed, Redis's sale is returned.)
 */
@Service
public class SalesRecord {

    private static final Logger log = LoggerFactory.getLogger(SalesRecord.class);

    /**
     * The usual Confirm in one request: the ledger row CONFIRMED (inserted, or moved from the TRIED row the ledger
     * consumer wrote) and the sale counted, only when the row was neither confirmed already nor the MySQL store's;
     * then what it did. The commit (or rollback) is the second request. The statements and their lock order are
     * {@link #confirmedInTransaction}'s: ledger row first, then {@code sku_stock}.
     */
    private static final String CONFIRM_TRIP = "START TRANSACTION;"
            + " INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store,"
            + " user_id) VALUES (?, ?, ?, ?, ?, 'CONFIRMED', 'REDIS', ?);"
            + " SET @flashstock_confirmed = ROW_COUNT();"
            + " UPDATE stock_ledger SET state = 'CONFIRMED' WHERE xid = ? AND reservation_key = ? AND sku_id = ?"
            + " AND state = 'TRIED' AND store = 'REDIS' AND @flashstock_confirmed = 0;"
            + " SET @flashstock_confirmed = @flashstock_confirmed + ROW_COUNT();"
            + " UPDATE sku_stock SET sold = sold + ?, version = version + 1 WHERE sku_id = ?"
            + " AND stocked - sold - reserved - allotment_available - allotment_incoming >= ? AND @flashstock_confirmed = 1;"
            + " SELECT @flashstock_confirmed, ROW_COUNT()";

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final SalesGroups groups;

    SalesRecord(SkuStockMapper skus, StockLedgerMapper ledger, JdbcTemplate jdbc,
                PlatformTransactionManager transactions, SalesGroups groups) {
        this.skus = skus;
        this.ledger = ledger;
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
        this.groups = groups;
    }

    /**
     * Whether the step goes to a group commit ({@link SalesGroups}): not inside a transaction of the caller's, whose
     * statements it must be part of.
     */
    private static boolean grouped() {
        return !TransactionSynchronizationManager.isActualTransactionActive();
    }

    /**
     * How the durable record says a second phase ended the Redis store's reservation of one SKU (its ledger row
     * CONFIRMED or CANCELLED); empty while no phase has ended it there. For a phase that finds no record in Redis:
     * a record Redis dropped (evicted, or lost with its writes) is not a Try Redis never had.
     */
    public java.util.Optional<LedgerRow> endedInRedisStore(String xid, String reservationId, String skuId) {
        return java.util.Optional.ofNullable(ledger.endedInRedis(xid, reservationId, skuId));
    }

    /** As {@link #confirmed(String, String, long, String, long, String)} without a known buyer. */
    public void confirmed(String xid, String reservationId, long branchId, String skuId, long units) {
        confirmed(xid, reservationId, branchId, skuId, units, null);
    }

    /**
     * A confirmed sale of {@code units} (as the Redis fence record says): ledger CONFIRMED, sold += units, once.
     * Concurrent Confirms share one transaction ({@link SalesGroups}); one the group does not take, or a Confirm
     * that arrives alone, goes as follows. The usual case (the row absent or TRIED by Redis, the SKU's row able to
     * take the sale) costs two requests ({@link #CONFIRM_TRIP}, then the commit) where the statements one by one cost
     * six; anything else is rolled back untouched and goes {@link #confirmedInTransaction the general way}, which
     * decides and says what it found.
     */
    public void confirmed(String xid, String reservationId, long branchId, String skuId, long units, String userId) {
        if (grouped() && groups.confirmed(new Sale(xid, reservationId, branchId, skuId, units, userId))
                == SalesGroups.Step.RECORDED) {
            return;
        }
        Boolean done = jdbc.execute((ConnectionCallback<Boolean>) c -> {
            if (!c.getAutoCommit()) {
                return false; // inside a transaction of someone else's: its own statements only
            }
            boolean committed = false;
            try (PreparedStatement ps = c.prepareStatement(CONFIRM_TRIP)) {
                int i = 1;
                ps.setString(i++, xid);
                ps.setString(i++, reservationId);
                ps.setLong(i++, branchId);
                ps.setString(i++, skuId);
                ps.setLong(i++, units);
                ps.setString(i++, userId);
                ps.setString(i++, xid);
                ps.setString(i++, reservationId);
                ps.setString(i++, skuId);
                ps.setLong(i++, units);
                ps.setString(i++, skuId);
                ps.setLong(i, units);
                boolean result = ps.execute();
                long moved = -1;
                long sold = -1;
                while (true) {
                    if (result) {
                        try (ResultSet rs = ps.getResultSet()) {
                            if (rs.next()) {
                                moved = rs.getLong(1);
                                sold = rs.getLong(2);
                            }
                        }
                    } else if (ps.getUpdateCount() == -1) {
                        break;
                    }
                    result = ps.getMoreResults();
                }
                committed = moved == 1 && sold == 1;
                OneTrip.end(c, committed ? "COMMIT" : "ROLLBACK");
                return committed;
            } catch (SQLException | RuntimeException e) {
                if (!committed) {
                    OneTrip.end(c, "ROLLBACK");
                }
                throw e;
            }
        });
        if (!Boolean.TRUE.equals(done)) {
            transactions.executeWithoutResult(status ->
                    confirmedInTransaction(xid, reservationId, branchId, skuId, units, userId));
        }
    }

    /** {@link #confirmed}, statement by statement, in the caller's transaction: every case, the rare ones too. */
    private void confirmedInTransaction(String xid, String reservationId, long branchId, String skuId, long units,
                                        String userId) {
        boolean firstTime = ledger.insert(xid, reservationId, branchId, skuId, units, "CONFIRMED", "REDIS", userId) == 1
                || ledger.advance(xid, reservationId, skuId, "CONFIRMED") == 1;
        if (!firstTime) {
            LedgerRow row = ledger.lock(xid, reservationId, skuId);
            if (!row.heldByMysql()) {
                if (!"CONFIRMED".equals(row.state())) {
                    log.error("ledger row of {} is {}, not CONFIRMED, while Redis confirmed it", skuId, row.state());
                }
                return;
            }
            switch (row.state()) {
                case "TRIED" -> {
                    log.warn("reservation {} of SKU {} was held by both stores (a retried Try reached Redis after the"
                            + " MySQL store had taken it); Redis confirmed it, so the MySQL store's {} unit(s) go back to"
                            + " the allotment", reservationId, skuId, row.quantity());
                    if (skus.releaseReserved(skuId, row.quantity()) != 1) {
                        throw new IllegalStateException("sku_stock of " + skuId + " holds fewer reserved units than"
                                + " the ledger row of reservation " + reservationId);
                    }
                }
                case "CONFIRMED" -> {
                    // the row waits to be mirrored (the MySQL store's Confirm marked it so): lua/mirror.lua returns
                    // Redis's sale then (SALE_RETURNED), and MySQL keeps counting the MySQL store's sale only
                    log.warn("reservation {} of SKU {} was confirmed by both stores: {} unit(s) in the MySQL store and"
                            + " {} in Redis; the MySQL store's sale stands, and the mirror returns Redis's units",
                            reservationId, skuId, row.quantity(), units);
                    return;
                }
                default -> log.error("reservation {} of SKU {} was cancelled by the MySQL store but confirmed by Redis;"
                        + " the sale Redis made is recorded", reservationId, skuId);
            }
            ledger.takeOverForRedis(row.id(), "CONFIRMED", units);
        }
        if (skus.sell(skuId, units) != 1) {
            throw new IllegalStateException("sku_stock of " + skuId + " cannot take a sale of " + units
                    + " (unknown SKU, or MySQL has fewer units than Redis sold): Redis and MySQL drifted");
        }
    }

    /**
     * A restock of {@code units} under the caller's operation id: recorded and added to {@code stocked} in one
     * transaction, once; a replay changes nothing. @return true when applied now
     */
    @Transactional
    public boolean restocked(String skuId, String operationId, long units) {
        if (skus.recordRestock(skuId, operationId, units) == 0) {
            return false;
        }
        if (skus.restock(skuId, units) != 1) {
            throw new IllegalStateException("no sku_stock row for " + skuId);
        }
        return true;
    }

    /** As {@link #cancelled(String, String, long, String, long, String)} without a known buyer. */
    public void cancelled(String xid, String reservationId, long branchId, String skuId, long units) {
        cancelled(xid, reservationId, branchId, skuId, units, null);
    }

    /**
     * A cancelled reservation of {@code units} that Redis held: ledger CANCELLED, once. MySQL stock is untouched
     * (Redis held it), except when the MySQL store held the reservation too: its units go back to the allotment.
     * Concurrent Cancels share one transaction ({@link SalesGroups}); the rest run in one of their own (or the
     * caller's).
     */
    public void cancelled(String xid, String reservationId, long branchId, String skuId, long units, String userId) {
        if (grouped() && groups.cancelled(new Sale(xid, reservationId, branchId, skuId, units, userId))
                == SalesGroups.Step.RECORDED) {
            return;
        }
        transactions.executeWithoutResult(status ->
                cancelledInTransaction(xid, reservationId, branchId, skuId, units, userId));
    }

    private void cancelledInTransaction(String xid, String reservationId, long branchId, String skuId, long units,
                                        String userId) {
        if (ledger.insert(xid, reservationId, branchId, skuId, units, "CANCELLED", "REDIS", userId) == 1
                || ledger.advance(xid, reservationId, skuId, "CANCELLED") == 1) {
            return;
        }
        LedgerRow row = ledger.lock(xid, reservationId, skuId);
        if (row.heldByMysql() && row.tried()) {
            log.warn("reservation {} of SKU {} was held by both stores (a retried Try reached Redis after the MySQL store"
                    + " had taken it); both are cancelled", reservationId, skuId);
            if (skus.releaseReserved(skuId, row.quantity()) != 1) {
                throw new IllegalStateException("sku_stock of " + skuId + " holds fewer reserved units than the ledger"
                        + " row of reservation " + reservationId);
            }
            ledger.takeOverForRedis(row.id(), "CANCELLED", units);
        }
    }

    /**
     * A Confirm met the refusal of this reservation's Try on this SKU (a commit after a refused Try): nothing was sold;
     * the ledger keeps the fact on the reservation's REFUSED row, written now when the refusal was recorded in Redis
     * only, for the reconciler to report ({@code CONFIRM_OF_REFUSED_TRY}).
     *
     * @param units the units the committed branch asked for (none of them were sold)
     * @param store REDIS or MYSQL: the store whose record said the Try was refused
     */
    public void confirmOfRefused(String xid, String reservationId, long branchId, String skuId, long units,
                                 String store, String userId) {
        ledger.confirmOfRefused(xid, reservationId, branchId, skuId, Math.max(units, 1), store, userId);
    }
}
