package io.github.flashstock.inventory.stock;

/**
 * One reservation's second phase on one SKU, as MySQL's sales record takes it: the units Redis's fence record says
 * it held (or, for an unrecorded confirm, the units it took), and the buyer (null when unknown).
 */
public record Sale(String xid, String reservationId, long branchId, String skuId, long units, String userId) {

    /** The ledger row's unique key: (xid, reservation, SKU). */
    record Key(String xid, String reservationId, String skuId) {
    }

    Key key() {
        return new Key(xid, reservationId, skuId);
    }
}
