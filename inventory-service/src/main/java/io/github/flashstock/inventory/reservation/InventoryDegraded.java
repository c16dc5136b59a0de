package io.github.flashstock.inventory.reservation;


/**
 * Redis is out of reach and the MySQL store cannot take the reservation now: its rate limit is spent, or the SKU's
 * reserve lacks the units while Redis (which holds the rest) cannot be asked. Nothing was reserved; a retry after a
 * moment may succeed.
 */
public final class InventoryDegraded extends ReservationRefused {

    private final String skuId;

    public InventoryDegraded(String skuId, String message) {
        super(message);
        this.skuId = skuId;
    }

    /** The SKU concerned; null when the refusal is about the MySQL path as a whole (its rate limit). */
    public String skuId() {
        return skuId;
    }
}
