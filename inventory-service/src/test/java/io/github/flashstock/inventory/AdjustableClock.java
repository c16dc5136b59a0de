package io.github.flashstock.inventory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The system clock plus an offset a test can move forward, so that "older than" needs no sleeping. Only ever moves
 * forward (the tests share one service), never backward.
 */
public final class AdjustableClock extends Clock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    /** Moves this clock {@code by} into the future, for everything the service times from now on. */
    public void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("the clock only moves forward");
        }
        offset.accumulateAndGet(by, Duration::plus);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
