package io.github.flashstock.inventory.reservation;

public final class PurchaseLimitExceeded extends ReservationRefused {

    private final String skuId;
    private final long limit;
    private final long alreadyBought;

    public PurchaseLimitExceeded(String skuId, int requested, long limit, long alreadyBought) {
        super("SKU " + skuId + " allows " + limit + " unit(s) per user; this user holds " + alreadyBought
                + " and asked for " + requested);
        this.skuId = skuId;
        this.limit = limit;
        this.alreadyBought = alreadyBought;
    }

    public String skuId() {
        return skuId;
    }

    public long limit() {
        return limit;
    }

    public long alreadyBought() {
        return alreadyBought;
    }
}
