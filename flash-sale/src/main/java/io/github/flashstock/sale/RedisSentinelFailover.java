package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

/**
 * On the devstack's Sentinel layout: the primary kill -9; recovery is the Sentinels' own (two of three agree it is
 * down and promote the replica), then the dead node starts again from its own files and the Sentinels make it the
 * new primary's replica. Until it is back and has rewritten its AOF, {@code fsync-and-replica} has no replica's disk
 * to wait for, and Tries are refused with a 503 to retry.
 */
final class RedisSentinelFailover implements Fault {

    private int primary;
    private Instant at;

    @Override
    public Hit inject(Scene scene) {
        primary = scene.stack().redisSentinelPrimaryPort();
        at = Instant.now();
        List<Long> pids = scene.stack().kill(Component.REDIS_SENTINEL, "node-" + primary);
        return new Hit(at, "Redis Sentinel layout's primary (port " + primary + ", PID " + pids + ") killed");
    }

    @Override
    public Duration outage(Scene scene) {
        return Duration.ZERO;
    }

    @Override
    public String heal(Scene scene) {
        Instant until = at.plus(Duration.ofSeconds(60));
        int now = primary;
        while (now == primary && Instant.now().isBefore(until)) {
            ServiceProcess.sleep(Duration.ofMillis(200));
            try {
                now = scene.stack().redisSentinelPrimaryPort();
            } catch (IllegalStateException noAnswer) {
                // the Sentinels are busy electing; ask again
            }
        }
        if (now == primary) {
            throw new IllegalStateException("the Sentinels did not promote the replica within 60 s");
        }
        Duration promoted = Duration.between(at, Instant.now());
        scene.stack().up(EnumSet.of(Component.REDIS_SENTINEL));
        return "; the Sentinels promoted port " + now + " " + promoted.toMillis() / 1000.0
                + " s later, the dead node back as its replica after " + Duration.between(at, Instant.now()).toMillis()
                / 1000.0 + " s";
    }
}
