package io.github.flashstock.inventory.stock;

/**
 * A Try's event on one SKU, as its TRIED ledger row records it: the row's key (xid, reservation, SKU), the branch,
 * the units, the store that holds them and the buyer.
 */
public record TriedEvent(String xid, String reservationId, long branchId, String skuId, long quantity, String store,
                         String userId) {
}
