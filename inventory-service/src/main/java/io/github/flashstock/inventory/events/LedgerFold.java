package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.stock.jdbc.StockLedgerMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Folds a stock event into the MySQL ledger. States only move forward (TRIED, then CONFIRMED or CANCELLED), so a
 * duplicate or a late event changes nothing. It never touches {@code sku_stock}: the Confirm owns the sale.
 */
@Component
class LedgerFold {

    private final StockLedgerMapper ledger;

    LedgerFold(StockLedgerMapper ledger) {
        this.ledger = ledger;
    }

    /** @return true when the event moved the ledger */
    @Transactional
    public boolean fold(StockEventMessage e) {
        if (ledger.insert(e.xid(), e.reservationId(), e.branchId(), e.skuId(), e.quantity(), e.phase(),
                e.backend()) == 1) {
            return true;
        }
        return !e.phase().equals("TRIED") && ledger.advance(e.xid(), e.reservationId(), e.skuId(), e.phase()) == 1;
    }
}
