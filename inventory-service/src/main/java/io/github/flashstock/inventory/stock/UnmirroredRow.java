package io.github.flashstock.inventory.stock;

/**
 * A ledger row of the MySQL store that Redis does not reflect yet in its {@code state} ({@code lua/mirror.lua});
 * {@code refusal} names the refusal of a REFUSED row (else null).
 */
public record UnmirroredRow(long id, String xid, String reservationKey, String skuId, long quantity, String state,
                            String userId, String refusal) {
}
