package io.github.flashstock.orderdemo.order;

/** No order with this id. */
public class UnknownOrder extends RuntimeException {

    private final String orderId;

    UnknownOrder(String orderId) {
        super("no order " + orderId, null, false, false);
        this.orderId = orderId;
    }

    public String orderId() {
        return orderId;
    }
}
