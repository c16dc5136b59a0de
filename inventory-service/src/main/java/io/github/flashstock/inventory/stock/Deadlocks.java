package io.github.flashstock.inventory.stock;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Transactions that lost a deadlock. MariaDB rolls such a transaction back whole, so it changed nothing and can run
 * again at once, which is cheaper and quicker than failing the caller (a Try answered 503, a batch of stock events
 * sent back to the broker for a later delivery).
 */
public final class Deadlocks {

    /** MariaDB's error of a deadlock's loser (a lock wait that timed out is 1205, whose SQLSTATE some drivers share). */
    private static final int ER_LOCK_DEADLOCK = 1213;

    private Deadlocks() {
    }

    /** Whether {@code e} says its transaction lost a deadlock, wherever the driver's error sits among its causes. */
    public static boolean lost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == ER_LOCK_DEADLOCK) {
                return true;
            }
        }
        return false;
    }

    /**
     * A retry of {@code registry} (so its calls are metrics: {@code resilience4j.retry.calls{name}}) that runs a
     * deadlock's loser again, up to 4 attempts in all, about 5 ms apart (randomized, so two losers do not meet again
     * in step); any other failure, a lock wait that timed out among them, is thrown at once.
     */
    public static Retry retry(RetryRegistry registry, String name) {
        return registry.retry(name, RetryConfig.custom().maxAttempts(4)
                .intervalFunction(IntervalFunction.ofRandomized(Duration.ofMillis(5), 0.8))
                .retryOnException(Deadlocks::lost).build());
    }
}
