package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.stock.StockLedgerMapper;
import org.springframework.stereotype.Component;

/**
 * Folds a stock event into the MySQL ledger. Only a Try's event writes here: its TRIED row (the Try itself touches
 * only Redis). The CONFIRMED and CANCELLED states are written by the Confirm and Cancel themselves, in the MySQL
 * transaction that moves {@code sku_stock} ({@code SalesRecord}), and must stay theirs: that transaction finds
 * the row's state to know whether the sale is counted yet, and the phase's event may reach this consumer before
 * the phase's MySQL step has run (the script appends it). So their events change nothing here, and a duplicate or
 * late TRIED event finds its row and changes nothing either.
 */
@Component
class LedgerFold {

    private final StockLedgerMapper ledger;

    LedgerFold(StockLedgerMapper ledger) {
        this.ledger = ledger;
    }

    /**
     * One statement, in autocommit: the insert is atomic on its own, and the events that change nothing (half of them:
     * every CONFIRMED and CANCELLED) cost no round trip at all, where a transaction around them cost three (autocommit
     * off, commit, autocommit on). Holding no lock while it waits, the consumer cannot deadlock with a phase's
     * transaction ({@code SalesRecordIT}).
     *
     * @return true when the event moved the ledger
     */
    public boolean fold(StockEventMessage e) {
        return "TRIED".equals(e.phase()) && ledger.insert(e.xid(), e.reservationId(), e.branchId(), e.skuId(),
                e.quantity(), "TRIED", e.store(), e.userId()) == 1;
    }
}
