package io.github.flashstock.inventory.reservation;

/**
 * The SKU is being rebuilt from the durable record after its Redis server restarted or failed over: nothing was
 * reserved, and the same request may succeed in a moment (the API answers 503 with {@code Retry-After}).
 */
public final class StockRecovering extends ReservationRefused {

    private final String skuId;

    public StockRecovering(String skuId) {
        super("SKU " + skuId + " is being rebuilt from the durable record after a Redis restart or failover;"
                + " nothing was reserved; try again");
        this.skuId = skuId;
    }

    public String skuId() {
        return skuId;
    }
}
