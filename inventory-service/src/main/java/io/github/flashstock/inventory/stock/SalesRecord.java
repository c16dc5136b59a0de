package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.stock.jdbc.SkuStockMapper;
import io.github.flashstock.inventory.stock.jdbc.StockLedgerMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The durable record in MySQL of what the second phases did (one ledger row per (xid, reservation, SKU), and the
 * SKU's sold count) and of restocks (one row per operation id, and the SKU's stocked count). Each method is one
 * transaction and idempotent: the ledger's and the operations' unique keys make a replay a no-op.
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

    /** A confirmed sale of {@code units} (as the Redis fence record says): ledger CONFIRMED, sold += units, once. */
    @Transactional
    public void confirmed(String xid, String reservationId, long branchId, String skuId, long units) {
        boolean firstTime = ledger.insert(xid, reservationId, branchId, skuId, units, "CONFIRMED", "REDIS") == 1
                || ledger.advance(xid, reservationId, skuId, "CONFIRMED") == 1;
        if (!firstTime) {
            String state = ledger.state(xid, reservationId, skuId);
            if (!"CONFIRMED".equals(state)) {
                log.error("ledger row of {} is {}, not CONFIRMED, while Redis confirmed it", skuId, state);
            }
            return;
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

    /** A cancelled reservation of {@code units}: ledger CANCELLED, once. MySQL stock is untouched (Redis held it). */
    @Transactional
    public void cancelled(String xid, String reservationId, long branchId, String skuId, long units) {
        if (ledger.insert(xid, reservationId, branchId, skuId, units, "CANCELLED", "REDIS") == 0) {
            ledger.advance(xid, reservationId, skuId, "CANCELLED");
        }
    }
}
