package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.events.StockMoved;

/**
 * A stock event as it travels on RocketMQ (JSON).
 *
 * @param phase   TRIED, CONFIRMED or CANCELLED: the ledger state the event moves its row to
 * @param backend where the Try reserved the units: REDIS (MYSQL once the fallback path exists)
 * @param at      when the phase ran, epoch milliseconds
 */
public record StockEventMessage(String phase, String xid, String reservationId, long branchId, String skuId,
                                long quantity, String userId, String backend, long at) {

    static StockEventMessage of(StockMoved moved) {
        String phase;
        String user = null;
        if (moved instanceof StockMoved.StockReserved r) {
            phase = "TRIED";
            user = r.userId();
        } else if (moved instanceof StockMoved.StockConfirmed) {
            phase = "CONFIRMED";
        } else {
            phase = "CANCELLED";
        }
        return new StockEventMessage(phase, moved.xid(), moved.reservationId(), moved.branchId(), moved.skuId(),
                moved.quantity(), user, "REDIS", moved.at().toEpochMilli());
    }

    /** The message key: one reservation on one SKU. */
    String key() {
        return xid + ":" + reservationId + ":" + skuId;
    }
}
