package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/** The fault of each drill, and the one way every fault is struck and healed. */
final class Faults {

    private Faults() {
    }

    /** A new fault object for one run of the drill. */
    static Fault of(Drill drill) {
        return switch (drill) {
            case ORDER_KILL -> new OrderDemoKill();
            case INVENTORY_KILL_ONE, INVENTORY_KILL_ONLY -> new InventoryKill();
            case INVENTORY_KILL_MID_CONFIRM -> new ConfirmGroupKill();
            case BROKER_KILL -> new BrokerKill();
            case REDIS_SPLIT -> new RedisSplit();
            case TC_KILL, TC_KILL_DB -> new ServerKill(Component.SEATA);
            case TC_KILL_ONE -> new TcKillOne();
            case REDIS_KILL -> new ServerKill(Component.REDIS);
            case MARIADB_KILL -> new ServerKill(Component.MARIADB);
            case REDIS_AOF_TAIL -> new RedisAofTail();
            case REDIS_MASTER_KILL -> RedisMasterKill.killed();
            case REDIS_CLUSTER_PLANNED -> RedisMasterKill.planned();
            case REDIS_SENTINEL_FAILOVER -> RedisSentinelFailover.killed();
            case REDIS_SENTINEL_PLANNED -> RedisSentinelFailover.planned();
            case REDIS_FREEZE -> new ServerPause(Component.REDIS, "Redis", "frozen");
            case REDIS_FULL -> new RedisFull();
            case MARIADB_PAUSE -> new ServerPause(Component.MARIADB, "MariaDB", "paused");
            case CHAOS -> throw new IllegalArgumentException("chaos has a schedule of faults: DrillRunner.runChaos");
        };
    }

    /** The fault of the drill {@code bin/drill} knows by this name. */
    static Fault named(String name) {
        return of(Drill.parse(name));
    }

    /**
     * Injects the fault, waits out its outage and heals it: the report's fault line, what happened and when the
     * system was whole again; {@code back} gets the time from the fault to then.
     */
    static String strike(Fault fault, Fault.Scene scene, AtomicReference<Duration> back) {
        Fault.Hit hit = fault.inject(scene);
        Duration outage = fault.outage(scene);
        if (!outage.isZero()) {
            ServiceProcess.sleep(outage);
        }
        String recovery = fault.heal(scene);
        back.set(Duration.between(hit.at(), Instant.now()));
        return hit.what() + recovery + "; healthy again " + back.get().toMillis() / 1000.0 + " s after the fault";
    }
}
