package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.stock.jdbc.LedgerRow;
import io.github.flashstock.inventory.stock.jdbc.SkuStockMapper;
import io.github.flashstock.inventory.stock.jdbc.StockLedgerMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The durable record in MySQL of what the second phases of reservations Redis held did (one ledger row per (xid,
 * reservation, SKU), and the SKU's sold count) and of restocks (one row per operation id, and the SKU's stocked
 * count). Each method is one transaction and idempotent: the ledger's and the operations' unique keys make a replay
 * a no-op.
 *
 * <p>A reservation can, rarely, be held by both stores: its Try ran on the MySQL path, its answer was lost, and the
 * caller's retry reached an instance whose Redis took it too. The phase that reaches Redis first decides: its MySQL
 * step finds the MySQL store's row, gives the MySQL store's units back to the reserve and makes the row Redis's.
 * ({@code lua/mirror.lua} settles the other order: the MySQL store's phase first, Redis's duplicate released.)
 */
@Service
public class SalesRecord {

    private static final Logger log = LoggerFactory.getLogger(SalesRecord.class);

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;

    public SalesRecord(SkuStockMapper skus, StockLedgerMapper ledger) {
        this.skus = skus;
        this.ledger = ledger;
    }

    /** As {@link #confirmed(String, String, long, String, long, String)} without a known buyer. */
    public void confirmed(String xid, String reservationId, long branchId, String skuId, long units) {
        confirmed(xid, reservationId, branchId, skuId, units, null);
    }

    /** A confirmed sale of {@code units} (as the Redis fence record says): ledger CONFIRMED, sold += units, once. */
    @Transactional
    public void confirmed(String xid, String reservationId, long branchId, String skuId, long units, String userId) {
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
                            + " MySQL path had taken it); Redis confirmed it, so the MySQL store's {} unit(s) go back to"
                            + " the reserve", reservationId, skuId, row.quantity());
                    if (skus.releaseReserved(skuId, row.quantity()) != 1) {
                        throw new IllegalStateException("sku_stock of " + skuId + " holds fewer reserved units than"
                                + " the ledger row of reservation " + reservationId);
                    }
                }
                case "CONFIRMED" -> {
                    log.error("reservation {} of SKU {} was confirmed by both stores: {} unit(s) in the MySQL store and"
                            + " {} in Redis; MySQL counts the MySQL store's sale only, so the reconciler reports Redis's"
                            + " units as drift", reservationId, skuId, row.quantity(), units);
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
     * (Redis held it), except when the MySQL store held the reservation too: its units go back to the reserve.
     */
    @Transactional
    public void cancelled(String xid, String reservationId, long branchId, String skuId, long units, String userId) {
        if (ledger.insert(xid, reservationId, branchId, skuId, units, "CANCELLED", "REDIS", userId) == 1
                || ledger.advance(xid, reservationId, skuId, "CANCELLED") == 1) {
            return;
        }
        LedgerRow row = ledger.lock(xid, reservationId, skuId);
        if (row.heldByMysql() && row.tried()) {
            log.warn("reservation {} of SKU {} was held by both stores (a retried Try reached Redis after the MySQL path"
                    + " had taken it); both are cancelled", reservationId, skuId);
            if (skus.releaseReserved(skuId, row.quantity()) != 1) {
                throw new IllegalStateException("sku_stock of " + skuId + " holds fewer reserved units than the ledger"
                        + " row of reservation " + reservationId);
            }
            ledger.takeOverForRedis(row.id(), "CANCELLED", units);
        }
    }
}
