package io.github.flashstock.inventory.events;


/**
 * A stock event as it travels on RocketMQ (JSON).
 *
 * @param phase   TRIED, CONFIRMED or CANCELLED: the ledger state the event moves its row to
 * @param backend where the Try reserved the units: REDIS (MYSQL once the fallback path exists)
 * @param at      when the phase ran, epoch milliseconds
 */
public record StockEventMessage(String phase, String xid, String reservationId, long branchId, String skuId,
                                long quantity, String userId, String backend, long at) {

    /** The message key: one reservation on one SKU. */
    String key() {
        return xid + ":" + reservationId + ":" + skuId;
    }
}
