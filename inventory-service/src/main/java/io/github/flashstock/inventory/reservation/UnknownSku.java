package io.github.flashstock.inventory.reservation;

public final class UnknownSku extends ReservationRefused {

    private final String skuId;

    public UnknownSku(String skuId) {
        super("no SKU " + skuId);
        this.skuId = skuId;
    }

    public String skuId() {
        return skuId;
    }
}
