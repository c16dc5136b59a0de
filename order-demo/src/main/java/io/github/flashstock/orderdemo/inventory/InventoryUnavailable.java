package io.github.flashstock.orderdemo.inventory;

/**
 * The inventory service answered 5xx or could not be reached; retried, then reported as 503. When it answered with a
 * problem, {@link #inventoryProblem} is that problem's name ({@code redis-full}, {@code mysql-store-busy}, ...), which
 * the buyer's answer carries along.
 */
public class InventoryUnavailable extends RuntimeException {

    private final String inventoryProblem;

    public InventoryUnavailable(String message, Throwable cause) {
        this(message, cause, null);
    }

    public InventoryUnavailable(String message, Throwable cause, String inventoryProblem) {
        super(message, cause);
        this.inventoryProblem = inventoryProblem;
    }

    /** The name of the problem the inventory service answered with (the last segment of its type), or null. */
    public String inventoryProblem() {
        return inventoryProblem;
    }
}
