package io.github.flashstock.inventory.redis;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The circuit breaker on the calls that sell from Redis (Tries, Confirms, Cancels): resilience4j's breaker
 * {@value #NAME}, configured under {@code resilience4j.circuitbreaker.instances.redis}. Only Redis being out of reach
 * counts against it ({@link RedisFailures#unreachable}); an error reply is Redis answering. Closed, the calls go to
 * Redis. Open, they are refused at once, without waiting for a timeout, and Tries go to the MySQL store. Half-open,
 * they are still refused: only {@link #probe} calls test Redis, made by whoever must catch Redis up before it sells
 * again (the MySQL store's reservations, which Redis must count for their buyers: {@code MysqlStoreMirror}); once they
 * succeed the breaker closes. Its state is a metric ({@code resilience4j.circuitbreaker.state}).
 */
@Component
public class RedisHealth {

    public static final String NAME = "redis";
    private static final Logger log = LoggerFactory.getLogger(RedisHealth.class);

    private final CircuitBreaker breaker;
    /** Whether the last failure that counted against the breaker was Redis refusing writes (OOM, MISCONF). */
    private volatile boolean lastFailureRefusedWrites;

    public RedisHealth(CircuitBreakerRegistry registry) {
        this.breaker = registry.circuitBreaker(NAME);
        breaker.getEventPublisher().onStateTransition(e -> log.warn("Redis circuit breaker: {}",
                e.getStateTransition()));
    }

    /**
     * Runs one Redis call through the breaker, if it is closed.
     *
     * @throws RedisUnreachable when the breaker is not closed (the call was not sent) or Redis could not be reached
     *                          or did not answer (whether it was sent: {@link RedisUnreachable#notSent()}); any other
     *                          failure is thrown as it came
     */
    public <T> T call(Supplier<T> call) {
        if (breaker.getState() != CircuitBreaker.State.CLOSED) {
            throw refused();
        }
        return probe(call);
    }

    /**
     * Runs one Redis call through the breaker in any state it permits calls in: closed, and half-open for as many
     * calls as it tests Redis with. Throws as {@link #call} does.
     */
    public <T> T probe(Supplier<T> call) {
        if (!breaker.tryAcquirePermission()) {
            throw refused();
        }
        long start = System.nanoTime();
        try {
            T result = call.get();
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return result;
        } catch (RuntimeException e) {
            long took = System.nanoTime() - start;
            if (!RedisFailures.unreachable(e)) {
                breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                throw e;
            }
            lastFailureRefusedWrites = RedisFailures.refusesWrites(e);
            breaker.onError(took, TimeUnit.NANOSECONDS, e);
            if (e instanceof RedisUnreachable unreachable) {
                throw unreachable;
            }
            throw new RedisUnreachable("Redis could not be reached: " + e.getMessage(), e, RedisFailures.notSent(e));
        } catch (Error e) {
            breaker.releasePermission();
            throw e;
        }
    }

    private RedisUnreachable refused() {
        return new RedisUnreachable("Redis is out of reach (circuit breaker " + state() + ")",
                CallNotPermittedException.createCallNotPermittedException(breaker), true);
    }

    /** Keeps every call away from Redis until {@link #endForcedOpen}, whatever Redis answers (an evicting Redis). */
    public void forceOpen() {
        breaker.transitionToForcedOpenState();
    }

    /** Ends {@link #forceOpen}: the breaker tests Redis (half-open) and closes once the probe calls succeed. */
    public void endForcedOpen() {
        if (breaker.getState() == CircuitBreaker.State.FORCED_OPEN) {
            breaker.transitionToHalfOpenState();
        }
    }

    /** The breaker is closed: calls go to Redis. */
    public boolean healthy() {
        return breaker.getState() == CircuitBreaker.State.CLOSED;
    }

    /**
     * The breaker is not closed and what opened it (the last failure) was Redis refusing writes: its memory full
     * under {@code noeviction} ({@code OOM}) or its disk ({@code MISCONF}). Tries refused meanwhile say so
     * ({@code 503 redis-full}).
     */
    public boolean refusingWrites() {
        return !healthy() && lastFailureRefusedWrites;
    }

    /** The breaker waits for probe calls to decide whether Redis is back. */
    public boolean testing() {
        return breaker.getState() == CircuitBreaker.State.HALF_OPEN;
    }

    /** The breaker's state now, in lower case: closed, open, half_open (forced and disabled states as named). */
    public String state() {
        return breaker.getState().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Runs {@code action} each time the breaker closes (Redis is healthy again), on the thread that closed it. */
    public void whenHealthyAgain(Runnable action) {
        breaker.getEventPublisher().onStateTransition(e -> {
            if (e.getStateTransition().getToState() == CircuitBreaker.State.CLOSED) {
                action.run();
            }
        });
    }

    /** Runs {@code action} each time the breaker starts testing Redis (half-open), on the thread that moved it. */
    public void whenTesting(Runnable action) {
        breaker.getEventPublisher().onStateTransition(e -> {
            if (e.getStateTransition().getToState() == CircuitBreaker.State.HALF_OPEN) {
                action.run();
            }
        });
    }
}
