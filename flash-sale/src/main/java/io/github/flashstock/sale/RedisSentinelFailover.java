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
 * <p>
 * Planned ({@link #planned()}): nothing dies; an operator asks a Sentinel for a failover ({@code SENTINEL FAILOVER},
 * as ahead of an upgrade), the replica is promoted and the old primary turns into its replica.
 */
final class RedisSentinelFailover implements Fault {

    private final boolean planned;
    private int primary;
    private Instant at;

    private RedisSentinelFailover(boolean planned) {
        this.planned = planned;
    }

    /** The primary kill -9. */
    static RedisSentinelFailover killed() {
        return new RedisSentinelFailover(false);
    }

    /** A failover an operator asks the Sentinels for; every node stays up. */
    static RedisSentinelFailover planned() {
        return new RedisSentinelFailover(true);
    }

    @Override
    public Hit inject(Scene scene) {
        primary = scene.stack().redisSentinelPrimaryPort();
        at = Instant.now();
        if (planned) {
            int sentinel = scene.stack().config().sentinels().get(0);
            Object reply = scene.stack().onRedisNode(sentinel, List.<String[]>of(new String[] {"SENTINEL", "FAILOVER",
                    scene.stack().endpoints().redisSentinelMaster()})).get(0);
            if (!"OK".equals(String.valueOf(reply))) {
                throw new IllegalStateException("SENTINEL FAILOVER on port " + sentinel + " answered " + reply);
            }
            return new Hit(at, "Redis Sentinel layout's primary (port " + primary + ") handed over: SENTINEL FAILOVER"
                    + " on Sentinel " + sentinel);
        }
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
        if (planned) {
            return "; the Sentinels promoted port " + now + " " + promoted.toMillis() / 1000.0 + " s later, port "
                    + primary + " its replica";
        }
        scene.stack().up(EnumSet.of(Component.REDIS_SENTINEL));
        return "; the Sentinels promoted port " + now + " " + promoted.toMillis() / 1000.0
                + " s later, the dead node back as its replica after " + Duration.between(at, Instant.now()).toMillis()
                / 1000.0 + " s";
    }
}
