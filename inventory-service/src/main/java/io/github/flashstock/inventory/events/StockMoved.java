package io.github.flashstock.inventory.events;

import java.time.Instant;

/**
 * A stock movement that happened, published as a Spring application event by the TCC phases once their effect
 * is in place. The TCC path knows nothing of messaging: listeners (reconciliation) forward these to RocketMQ.
 * One event per SKU line.
 */
public sealed interface StockMoved {

    String xid();

    String reservationId();

    long branchId();

    String skuId();

    /** Units moved: reserved by the Try, or ended by the Confirm or Cancel (as the fence record says). */
    long quantity();

    Instant at();

    /** The Try reserved {@code quantity} units for {@code userId}. */
    record StockReserved(String xid, String reservationId, long branchId, String skuId, long quantity,
                         String userId, Instant at) implements StockMoved {
    }

    /** The Confirm sold the units the Try had reserved. */
    record StockConfirmed(String xid, String reservationId, long branchId, String skuId, long quantity, Instant at)
            implements StockMoved {
    }

    /** The Cancel gave the units the Try had reserved back. */
    record StockReleased(String xid, String reservationId, long branchId, String skuId, long quantity, Instant at)
            implements StockMoved {
    }
}
