package io.github.flashstock.inventory.reservation;

public final class InsufficientStock extends ReservationRefused {

    private final String skuId;
    private final int requested;
    private final long available;

    public InsufficientStock(String skuId, int requested, long available) {
        super("SKU " + skuId + " has " + available + " unit(s) available, " + requested + " requested");
        this.skuId = skuId;
        this.requested = requested;
        this.available = available;
    }

    public String skuId() {
        return skuId;
    }

    public int requested() {
        return requested;
    }

    public long available() {
        return available;
    }
}
