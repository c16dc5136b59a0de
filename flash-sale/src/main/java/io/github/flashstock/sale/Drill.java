package io.github.flashstock.sale;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * One fault injected into a running sale, and how the system is brought back. Each drill names the shape it runs
 * on: how many inventory-service and order-demo instances serve the sale (the others are stopped for it), and which
 * store the Seata TC uses. They run in this order: the shapes with a second instance first (the instances all start
 * together) and the one on the TC's db store last, so that {@code all} starts and stops as few processes as it can.
 */
public enum Drill {

    /**
     * One of two order-demo instances dies while orders on it sit between their inventory Try and their commit:
     * buyers go on through the other one; the coordinator rolls the orphaned orders back when their timeout ends.
     */
    ORDER_KILL("order-kill", "one of two order-demo instances kill -9 between Try and commit, back after 3 s", 1, 2,
            null),
    /** One of two inventory instances dies: order-demo goes on with the other one. */
    INVENTORY_KILL_ONE("inventory-kill-one", "one of two inventory-service instances kill -9, back after 3 s", 2, 1,
            null),
    /**
     * The RocketMQ broker dies (its name server keeps running), and while it is away so does one of two
     * inventory-service instances, with the stock events it could not send yet; both come back 3 s later. Orders go
     * on through the other instance; every event reaches the topic once the broker is back.
     */
    BROKER_KILL("broker-kill", "RocketMQ broker kill -9, then while it is away one of two inventory-service instances"
            + " kill -9; both back after 3 s", 2, 1, null),
    /**
     * One of two inventory-service instances loses Redis while the other keeps it (a TCP proxy between it and Redis,
     * cut for 8 s, then restored): a split view. The cut instance sells from the SKUs' allotments, the other from
     * Redis, and neither store sells a unit the other holds; where the allotment runs short, order-demo's retry goes
     * to the other instance.
     */
    REDIS_SPLIT("redis-split", "one of two inventory-service instances cut off from Redis (a TCP proxy between them"
            + " closed) for 8 s, the other still reaching it", 2, 1, null),
    /** The only inventory instance dies: no Try can succeed until it is back. */
    INVENTORY_KILL_ONLY("inventory-kill-only", "the only inventory-service instance kill -9, back after 3 s", 1, 1,
            null),
    /**
     * The only inventory instance dies while Confirms are being coalesced (some wait for a shared call of
     * {@code confirm.lua}, others are in a group's MySQL transaction): the coordinator retries each Confirm that
     * did not answer once the instance is back, and each ends once, in Redis and in MySQL.
     */
    INVENTORY_KILL_MID_CONFIRM("inventory-kill-mid-confirm", "the only inventory-service instance kill -9 while"
            + " Confirms are coalesced, back after 3 s", 1, 1, null),
    /** The coordinator dies (its sessions in files) and comes back 3 s later. */
    TC_KILL("tc-kill", "Seata TC kill -9 (file store), back after 3 s", 1, 1, "file"),
    /** Redis dies and restarts from its append-only file. */
    REDIS_KILL("redis-kill", "Redis kill -9, restarted from its AOF after 3 s", 1, 1, null),
    /**
     * Redis dies and loses the last second of writes it had acknowledged (the AOF's tail is cut off before it
     * restarts), as a machine crash does with {@code appendfsync everysec}, or a failover to a replica that lagged.
     */
    REDIS_AOF_TAIL("redis-aof-tail", "Redis kill -9, the last second of its AOF cut off, restarted after 3 s", 1, 1,
            null),
    /**
     * On the devstack's Redis Cluster, with {@code inventory.durability: replica}: the master of the hot SKU's slot
     * dies mid-sale, the cluster promotes its replica, and the dead node comes back as the new master's replica.
     */
    REDIS_MASTER_KILL("redis-master-kill", "Redis Cluster: the hot SKU's master kill -9, its replica promoted, the"
            + " node back as its replica", 1, 1, null),
    /**
     * On the Redis Cluster, as {@link #REDIS_MASTER_KILL}, but planned, as a managed service's maintenance does it:
     * {@code CLUSTER FAILOVER} on the hot SKU's master's replica; nothing dies.
     */
    REDIS_CLUSTER_PLANNED("redis-cluster-planned", "Redis Cluster: a planned failover (CLUSTER FAILOVER on the hot"
            + " SKU's master's replica), the master handed over", 1, 1, null),
    /**
     * On the devstack's Sentinel layout (a primary, its replica, three Sentinels), with {@code inventory.durability:
     * fsync-and-replica}: the primary dies mid-sale, the Sentinels promote the replica, and the dead node comes back
     * as its replica.
     */
    REDIS_SENTINEL_FAILOVER("redis-sentinel-failover", "Redis Sentinel: the primary kill -9 under fsync-and-replica,"
            + " its replica promoted, the node back as its replica", 1, 1, null),
    /**
     * On the Sentinel layout, as {@link #REDIS_SENTINEL_FAILOVER}, but planned, as ahead of an upgrade: an operator's
     * {@code SENTINEL FAILOVER}; nothing dies, the replica is promoted and the old primary becomes its replica.
     */
    REDIS_SENTINEL_PLANNED("redis-sentinel-planned", "Redis Sentinel: a planned failover (SENTINEL FAILOVER) under"
            + " fsync-and-replica, the primary handed over to its replica", 1, 1, null),
    /** Redis freezes for 5 s (SIGSTOP), then goes on: the sale goes on from the SKUs' allotments meanwhile. */
    REDIS_FREEZE("redis-freeze", "Redis frozen (SIGSTOP) for 5 s", 1, 1, null),
    /**
     * Redis full, both ways: its memory ({@code maxmemory} just above use, {@code noeviction}: writes refused with
     * {@code OOM}), then its disk (the AOF cannot grow: writes refused with {@code MISCONF}), 3 s each, then room
     * again, and the fault waits to see Redis sell again. Meanwhile the sale goes on from the SKUs' allotments and
     * Confirms and Cancels wait ({@link RedisFull}). Its buyers arrive at 20 a second, so the sale outlasts the fault.
     */
    REDIS_FULL("redis-full", "Redis full: its memory (maxmemory just above use) for 3 s, then its disk (the AOF"
            + " cannot grow, MISCONF) for 3 s; Redis sells again once it has room", 1, 1, null),
    /** MariaDB (both services' databases, and the TC's in db mode) dies and restarts. */
    MARIADB_KILL("mariadb-kill", "MariaDB kill -9, restarted after 3 s", 1, 1, null),
    /** MariaDB freezes for 10 s (SIGSTOP), then goes on. */
    MARIADB_PAUSE("mariadb-pause", "MariaDB paused (SIGSTOP) for 10 s", 1, 1, null),
    /** The coordinator dies with its sessions in MariaDB (db store) and comes back 3 s later. */
    TC_KILL_DB("tc-kill-db", "Seata TC kill -9 (db store), back after 3 s", 1, 1, "db"),
    /**
     * The coordinator as a cluster: two TCs on the shared db store, which the services find through Nacos. One dies
     * mid-sale and stays down until the sale is over; the other serves every new transaction and, through the
     * shared store, finishes what the dead one left.
     */
    TC_KILL_ONE("tc-kill-one", "one of two Seata TCs (db store, found through Nacos) kill -9, back once the sale is"
            + " over", 1, 1, "db"),
    /**
     * Not a drill of its own ({@code bin/chaos}, not {@code bin/drill}): the HA layout (two of each service, two TCs,
     * the Redis Cluster) under a seeded schedule of faults, several at once ({@link ChaosSchedule}). Any order may
     * fail; none may be oversold, lost or answered untruly.
     */
    CHAOS("chaos", "the HA layout under a seeded schedule of kills, pauses and cut links, several at once", 2, 2,
            "db");

    private final String cliName;
    private final String description;
    private final int inventoryInstances;
    private final int orderInstances;
    private final String seataStore;

    Drill(String cliName, String description, int inventoryInstances, int orderInstances, String seataStore) {
        this.cliName = cliName;
        this.description = description;
        this.inventoryInstances = inventoryInstances;
        this.orderInstances = orderInstances;
        this.seataStore = seataStore;
    }

    public String cliName() {
        return cliName;
    }

    public String description() {
        return description;
    }

    /** inventory-service instances that serve the sale. */
    public int inventoryInstances() {
        return inventoryInstances;
    }

    /** order-demo instances the buyers reach. */
    public int orderInstances() {
        return orderInstances;
    }

    /** The TC's store this drill needs, if it needs one. */
    public Optional<String> seataStore() {
        return Optional.ofNullable(seataStore);
    }

    /** Drills where a second instance takes over: not one order may fail in them. */
    public boolean survivable() {
        return this == INVENTORY_KILL_ONE || this == ORDER_KILL || this == BROKER_KILL || this == REDIS_SPLIT;
    }

    /** How many Seata TCs serve the sale: two where one of them dies, else the stack's one. */
    public int seataInstances() {
        return this == TC_KILL_ONE || this == CHAOS ? 2 : 1;
    }

    /**
     * The most orders that may fail, as a share of the sale: none where a second instance takes over at once, 1 %
     * where a second TC does (the calls in flight to the one that died, and those sent to it until the clients
     * learn it is gone), no bound where the only instance of something dies.
     */
    public double failedShareAllowed() {
        if (survivable()) {
            return 0;
        }
        return this == TC_KILL_ONE ? 0.01 : 1;
    }

    /** The most orders of a sale of {@code orders} that may fail ({@link #failedShareAllowed}). */
    public int failedOrdersAllowed(int orders) {
        return (int) Math.floor(orders * failedShareAllowed());
    }

    /**
     * Drills where Redis loses writes it acknowledged, and with them the stock events those writes appended. Not
     * {@link #REDIS_MASTER_KILL} nor {@link #REDIS_SENTINEL_FAILOVER}: under {@code durability: replica} (and
     * {@code fsync-and-replica}) every phase that answered is on the replica that
     * takes over, its event with it (run with {@code -Ddrill.cluster-durability=none}, the drill may find events
     * missing, and says so).
     */
    public boolean losesRedisWrites() {
        return this == REDIS_AOF_TAIL;
    }

    /**
     * Drills that take Redis out of reach of an inventory instance for a while: the MySQL store then counts a buyer's
     * units from a ledger that learns of Redis's late, and a buyer may get more than the limit within the bound of
     * docs/design.md ("One buyer count"), which the reconciler reports ({@code LIMIT_EXCESS}).
     */
    public boolean cutsRedis() {
        return switch (this) {
            case REDIS_SPLIT, REDIS_KILL, REDIS_AOF_TAIL, REDIS_MASTER_KILL, REDIS_CLUSTER_PLANNED,
                 REDIS_SENTINEL_FAILOVER, REDIS_SENTINEL_PLANNED, REDIS_FREEZE, REDIS_FULL, CHAOS -> true;
            default -> false;
        };
    }

    /** Drills run on the devstack's Redis Cluster, the inventory instances set up for it. */
    public boolean onCluster() {
        return this == REDIS_MASTER_KILL || this == REDIS_CLUSTER_PLANNED || this == CHAOS;
    }

    /** Drills run on the devstack's Sentinel layout, the inventory instances set up for it. */
    public boolean onSentinel() {
        return this == REDIS_SENTINEL_FAILOVER || this == REDIS_SENTINEL_PLANNED;
    }

    /** How long the fault lasts before recovery starts (none in tc-kill-one: its TC stays down for the sale). */
    Duration outage() {
        return switch (this) {
            case TC_KILL_ONE, CHAOS -> Duration.ZERO;
            case MARIADB_PAUSE -> Duration.ofSeconds(10);
            case REDIS_SPLIT -> Duration.ofSeconds(8);
            case REDIS_FULL -> Duration.ofSeconds(6);
            case REDIS_FREEZE -> Duration.ofSeconds(5);
            default -> Duration.ofSeconds(3);
        };
    }

    /** Every drill {@code bin/drill} runs: all but {@link #CHAOS}, which {@code bin/chaos} runs. */
    public static java.util.List<Drill> drills() {
        return Arrays.stream(values()).filter(d -> d != CHAOS).toList();
    }

    public static Drill parse(String name) {
        return drills().stream().filter(d -> d.cliName.equals(name.trim().toLowerCase(Locale.ROOT)))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no drill named '" + name + "'; drills: "
                        + String.join(", ", drills().stream().map(Drill::cliName).toList())));
    }
}
