package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

/**
 * On the devstack's Redis Cluster: the master of the hot SKU's slot kill -9; recovery is the cluster's own (its
 * replica promoted), then the dead node comes back as the new master's replica. No outage of its own: the node is
 * started again once the replica took over, and not before (it keeps no data and would serve its slots again, empty).
 * <p>
 * Planned ({@link #planned()}): nothing dies; an operator asks the replica to take over ({@code CLUSTER FAILOVER},
 * as a managed service does for its maintenance): the master stops taking writes, the replica catches up with it,
 * takes its slots, and the old master becomes its replica.
 */
final class RedisMasterKill implements Fault {

    private final boolean planned;
    private int master;
    private int replica;
    private Instant at;

    private RedisMasterKill(boolean planned) {
        this.planned = planned;
    }

    /** The master kill -9. */
    static RedisMasterKill killed() {
        return new RedisMasterKill(false);
    }

    /** A failover the master's replica is asked for; every node stays up. */
    static RedisMasterKill planned() {
        return new RedisMasterKill(true);
    }

    @Override
    public Hit inject(Scene scene) {
        // the SKU's stock hash, inv:{<sku>}: its hash tag picks the slot
        int[] masterAndReplica = scene.stack().redisClusterMasterAndReplicaOf("inv:{" + scene.hotSku() + "}");
        master = masterAndReplica[0];
        replica = masterAndReplica[1];
        if (replica < 0) {
            throw new IllegalStateException("the master of the hot SKU's slot (port " + master
                    + ") has no replica to take over");
        }
        at = Instant.now();
        if (planned) {
            Object reply = scene.stack().onRedisNode(replica, List.<String[]>of(new String[] {"CLUSTER", "FAILOVER"}))
                    .get(0);
            if (!"OK".equals(String.valueOf(reply))) {
                throw new IllegalStateException("CLUSTER FAILOVER on port " + replica + " answered " + reply);
            }
            return new Hit(at, "Redis Cluster master of the hot SKU's slot (port " + master + ") handed over: CLUSTER"
                    + " FAILOVER on its replica (port " + replica + ")");
        }
        List<Long> pids = scene.stack().kill(Component.REDIS_CLUSTER, "node-" + master);
        return new Hit(at, "Redis Cluster master of the hot SKU's slot (port " + master + ", PID " + pids
                + ") killed");
    }

    @Override
    public Duration outage(Scene scene) {
        return Duration.ZERO;
    }

    @Override
    public String heal(Scene scene) {
        Instant until = at.plus(Duration.ofSeconds(60));
        while (!"master".equals(scene.stack().redisClusterRole(replica)) && Instant.now().isBefore(until)) {
            ServiceProcess.sleep(Duration.ofMillis(200));
        }
        if (!"master".equals(scene.stack().redisClusterRole(replica))) {
            throw new IllegalStateException("the replica on port " + replica + " did not take over within 60 s");
        }
        Duration promoted = Duration.between(at, Instant.now());
        if (planned) {
            return "; its replica (port " + replica + ") master " + promoted.toMillis() / 1000.0 + " s later, port "
                    + master + " its replica";
        }
        scene.stack().up(EnumSet.of(Component.REDIS_CLUSTER));
        return "; its replica (port " + replica + ") master " + promoted.toMillis() / 1000.0
                + " s later, the dead node back as its replica";
    }
}
