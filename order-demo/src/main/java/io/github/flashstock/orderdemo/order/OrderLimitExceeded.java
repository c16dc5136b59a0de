package io.github.flashstock.orderdemo.order;

/** The order asks for more units than one order may hold ({@code orders.limits.max-units-per-order}). */
public class OrderLimitExceeded extends RuntimeException {

    private final int limit;
    private final int requested;

    OrderLimitExceeded(int limit, int requested) {
        super("an order may hold at most " + limit + " units, this one asks for " + requested, null, false, false);
        this.limit = limit;
        this.requested = requested;
    }

    public int limit() {
        return limit;
    }

    public int requested() {
        return requested;
    }
}
