package io.github.flashstock.orderdemo.inventory;

/** The inventory service answered 5xx or could not be reached; retried, then reported as 503. */
public class InventoryUnavailable extends RuntimeException {

    public InventoryUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
