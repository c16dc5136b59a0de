package io.github.flashstock.inventory.events;

import com.fasterxml.jackson.annotation.JsonAlias;


/**
 * A stock event as it travels on RocketMQ (JSON).
 *
 * @param phase   TRIED, CONFIRMED or CANCELLED: the ledger state the event moves its row to; RETURNED: a sale Redis
 *                made of a reservation the MySQL store sold too, given back ({@code lua/mirror.lua})
 * @param store   the store that holds the reservation: REDIS (the scripts write the events; the MySQL store's
 *                reservations are in the ledger already); a message that names it {@code backend} (the
 *                ledger column's other name, see docs/glossary.md) is read the same
 * @param at      when the phase ran, epoch milliseconds
 */
public record StockEventMessage(String phase, String xid, String reservationId, long branchId, String skuId,
                                long quantity, String userId, @JsonAlias("backend") String store, long at) {

    /** The message key: one reservation on one SKU. */
    String key() {
        return xid + ":" + reservationId + ":" + skuId;
    }
}
