package io.github.flashstock.inventory.reservation;

/** The transaction's Cancel reached this SKU before the Try did; the Try may never lock anything now. */
public final class ReservationCancelled extends ReservationRefused {

    private final String skuId;

    public ReservationCancelled(String skuId) {
        super("the reservation was already cancelled for SKU " + skuId + " (its Cancel arrived before this Try)");
        this.skuId = skuId;
    }

    public String skuId() {
        return skuId;
    }
}
