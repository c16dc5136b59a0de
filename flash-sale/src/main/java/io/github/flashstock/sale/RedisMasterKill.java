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
 */
final class RedisMasterKill implements Fault {

    private int master;
    private int replica;
    private Instant at;

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
        scene.stack().up(EnumSet.of(Component.REDIS_CLUSTER));
        return "; its replica (port " + replica + ") master " + promoted.toMillis() / 1000.0
                + " s later, the dead node back as its replica";
    }
}
