package io.github.flashstock.inventory.stock;

/** A ledger row of the MySQL store that Redis does not reflect yet in its {@code state} ({@code lua/mirror.lua}). */
public record UnmirroredRow(long id, String xid, String reservationKey, String skuId, long quantity, String state,
                            String userId) {
}
