package io.github.flashstock.inventory.redis;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * A Redis call failed because Redis could not be reached or did not answer ({@link RedisFailures#unreachable}), or
 * the breaker refused it. {@link #notSent()}: certainly never sent, so it did nothing in Redis.
 */
public class RedisUnreachable extends DataAccessResourceFailureException {

    private final boolean notSent;

    RedisUnreachable(String message, Throwable cause, boolean notSent) {
        super(message, cause);
        this.notSent = notSent;
    }

    /** The call did nothing in Redis: it was refused by the breaker, or the client never sent it. */
    public boolean notSent() {
        return notSent;
    }
}
