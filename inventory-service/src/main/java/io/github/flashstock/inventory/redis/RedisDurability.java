package io.github.flashstock.inventory.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * What an acknowledged Try survives ({@code inventory.durability}), checked against the servers at start: the
 * service refuses to run with a Redis that cannot give the guarantee it was told to promise.
 * <ul>
 *   <li>{@code fsync} (the default): a Try is answered only once its writes are on disk. Every node the service
 *       writes to must run {@code appendonly yes} with {@code appendfsync always}, under which Redis fsyncs the AOF
 *       before it replies (once per event loop, so the Tries of one coalesced call share it). A Redis killed or a
 *       machine that loses power keeps every Try it acknowledged. ({@code appendfsync everysec} with a
 *       {@code WAITAOF 1 0} behind each call would give the same on Valkey 8, but its fsyncs stay about a second
 *       apart under load: measured at 1 % of the Try rate of {@code none}, docs/benchmarks.md.)</li>
 *   <li>{@code replica}: a Try is answered only once its writes are on at least {@code inventory.replica-wait.replicas}
 *       replicas of the primary that ran it ({@link DurableWait}: the script and a {@code WAIT} on a connection of
 *       their own, one wait per coalesced call; Confirm and Cancel wait the same way). A primary killed and
 *       replaced by its replica (Redis Cluster, Sentinel) keeps every Try and phase it acknowledged; a wait that
 *       times out fails the Try, whose global transaction rolls back. Every primary must have that many replicas
 *       connected at start. The servers' own fsync setting is not checked: losing a primary and its replicas at
 *       once (one machine, one power cut) is what {@code fsync} is for.</li>
 *   <li>{@code fsync-and-replica}: both at once: a Try is answered once its writes are on the primary's disk and on
 *       the disks of {@code inventory.replica-wait.replicas} replicas ({@code WAITAOF 1 N}). It survives a primary
 *       killed and replaced, and a power cut of every machine. It needs {@code WAITAOF}, {@code appendonly yes} on
 *       every primary, the replicas connected, and replicas that fsync their AOF: at start one probe write on each
 *       primary must be acknowledged so within the wait's timeout.</li>
 *   <li>{@code none}: whatever the server does; with {@code appendfsync everysec} a machine crash can lose about
 *       the last second of acknowledged Tries (units then sold twice: docs/design.md, "What each failure does").
 *       A warning says so at every start.</li>
 * </ul>
 * On a Redis Cluster every primary is checked; through Sentinel, the primary it names. A server that will not say
 * its settings ({@code CONFIG} renamed or denied) cannot be trusted with {@code fsync}.
 */
@Component
public class RedisDurability implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RedisDurability.class);

    /** The key the start check of {@code fsync-and-replica} writes (with a hash tag that lands on each primary). */
    static final String PROBE_KEY = "inv:durability-probe:";

    /** The guarantees a Try can be given. */
    public enum Level {
        NONE, FSYNC, REPLICA, FSYNC_AND_REPLICA;

        /** As the setting spells it: {@code fsync-and-replica}. */
        public String setting() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final RedisConnectionFactory connections;
    private final Level level;
    private final int replicas;
    private final Duration replicaTimeout;
    private final int replicaConnections;
    private DurableWait durableWait;

    /** A level with the replica wait's defaults: one replica, one second, 16 connections. */
    public RedisDurability(RedisConnectionFactory connections, String level) {
        this(connections, level, 1, Duration.ofSeconds(1), 16);
    }

    @Autowired
    public RedisDurability(RedisConnectionFactory connections, @Value("${inventory.durability:fsync}") String level,
                           @Value("${inventory.replica-wait.replicas:1}") int replicas,
                           @Value("${inventory.replica-wait.timeout:1s}") Duration replicaTimeout,
                           @Value("${inventory.replica-wait.connections:16}") int replicaConnections) {
        this.connections = connections;
        try {
            this.level = Level.valueOf(level.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("inventory.durability must be fsync, replica, fsync-and-replica or none,"
                    + " was '" + level + "'", e);
        }
        this.replicas = replicas;
        this.replicaTimeout = replicaTimeout;
        this.replicaConnections = replicaConnections;
    }

    public Level level() {
        return level;
    }

    /**
     * What runs the calls when the answer must wait ({@code replica}, {@code fsync-and-replica}); empty when the
     * server's own reply is the guarantee.
     */
    public Optional<DurableWait> durableWait() {
        return Optional.ofNullable(durableWait);
    }

    @Override
    public void afterPropertiesSet() {
        switch (level) {
            case REPLICA -> startReplicaWait();
            case FSYNC_AND_REPLICA -> startFsyncAndReplica();
            case FSYNC -> startFsync();
            case NONE -> {
                List<String> problems = check();
                log.warn("inventory.durability=none: Tries are acknowledged before Redis has them on disk; a machine"
                        + " crash can lose acknowledged Tries and sell their units twice{}", problems.isEmpty()
                        ? " (the servers fsync every write now, but nothing checks it stays so)" : "");
            }
        }
    }

    private void startFsync() {
        List<String> problems = check();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("inventory.durability=fsync, but Redis would acknowledge Tries before they"
                    + " are on disk: " + String.join("; ", problems) + ". Set appendonly yes and appendfsync always"
                    + " on every node, or inventory.durability=none to run without the guarantee.");
        }
        log.info("inventory.durability=fsync: every node has appendonly yes, appendfsync always");
    }

    private void startReplicaWait() {
        requireReplicas();
        durableWait = newWait(false, replicas);
        log.info("inventory.durability=replica: a Try is answered once {} replica(s) have its writes (waiting at most"
                + " {} ms)", replicas, replicaTimeout.toMillis());
    }

    private void startFsyncAndReplica() {
        List<String> problems = new ArrayList<>(waitAofProblems());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("inventory.durability=fsync-and-replica needs WAITAOF and appendonly yes"
                    + " on every primary: " + String.join("; ", problems) + ". Run Redis 7.2+ or Valkey with"
                    + " appendonly yes, or choose inventory.durability=fsync or replica.");
        }
        requireReplicas();
        durableWait = newWait(true, replicas);
        List<String> slow = new ArrayList<>();
        List<String> failed = probe(durableWait, slow);
        if (!failed.isEmpty()) {
            durableWait.close();
            durableWait = null;
            throw new IllegalStateException("inventory.durability=fsync-and-replica: a probe write was not on the"
                    + " primary's disk and " + replicas + " replica(s)' disks within " + replicaTimeout.toMillis()
                    + " ms: " + String.join("; ", failed) + ". Every replica must run appendonly yes (appendfsync"
                    + " always, or each wait takes up to a second).");
        }
        if (!slow.isEmpty()) {
            log.warn("inventory.durability=fsync-and-replica: the probe write took {} to be durable: a replica that"
                    + " fsyncs every second (appendfsync everysec) makes every Try wait that long", slow);
        }
        log.info("inventory.durability=fsync-and-replica: a Try is answered once it is on the primary's disk and on"
                + " {} replica(s)' disks (WAITAOF 1 {}, at most {} ms)", replicas, replicas, replicaTimeout.toMillis());
    }

    private void requireReplicas() {
        if (replicas < 1) {
            throw new IllegalStateException("inventory.replica-wait.replicas must be at least 1, was " + replicas);
        }
        List<String> problems = replicaProblems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("inventory.durability=" + level.setting() + " needs " + replicas
                    + " replica(s) connected to every primary: " + String.join("; ", problems) + ". Add replicas,"
                    + " lower inventory.replica-wait.replicas, or choose inventory.durability=fsync or none.");
        }
    }

    private DurableWait newWait(boolean onDisk, int replicaCount) {
        if (!(connections instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("inventory.durability=" + level.setting() + " needs the Lettuce Redis"
                    + " client");
        }
        return new DurableWait(lettuce::getRequiredNativeClient, onDisk, replicaCount, replicaTimeout,
                replicaConnections);
    }

    /**
     * One write on each primary, through {@code wait}: the primaries where it was not durable in time (with why);
     * those where it took more than a quarter of the timeout go to {@code slow}.
     */
    private List<String> probe(DurableWait wait, List<String> slow) {
        List<String> failed = new ArrayList<>();
        RedisPrimaries.forEach(connections, (name, server) -> {
            String key = null;
            for (int i = 0; key == null && i < 100_000; i++) {
                String candidate = PROBE_KEY + "{" + i + "}";
                if (server.owns(candidate)) {
                    key = candidate;
                }
            }
            if (key == null) {
                failed.add(name + " serves no slot");
                return;
            }
            long started = System.nanoTime();
            try {
                wait.probe(key);
                long millis = (System.nanoTime() - started) / 1_000_000;
                if (millis > replicaTimeout.toMillis() / 4) {
                    slow.add(name + ": " + millis + " ms");
                }
            } catch (RuntimeException e) {
                failed.add(name + ": " + e.getMessage());
            }
        });
        return failed;
    }

    /**
     * What keeps the level from holding now, read from the servers as the check at start reads it: under
     * {@code fsync} the nodes that would answer while the disk lacks a Try, under {@code replica} the primaries short
     * of replicas, under {@code fsync-and-replica} either; empty when it holds ({@code none} promises nothing, so it
     * always holds).
     */
    public List<String> shortfalls() {
        return switch (level) {
            case NONE -> List.of();
            case FSYNC -> check();
            case REPLICA -> replicaProblems();
            case FSYNC_AND_REPLICA -> {
                List<String> all = new ArrayList<>(waitAofProblems());
                all.addAll(replicaProblems());
                yield all;
            }
        };
    }
    /** Primaries with fewer connected replicas than a Try must reach; empty when none. */
    List<String> replicaProblems() {
        List<String> problems = new ArrayList<>();
        try {
            RedisPrimaries.forEach(connections, (name, server) -> {
                long connected = Long.parseLong(server.info("replication").getProperty("connected_slaves", "0"));
                if (connected < replicas) {
                    problems.add(name + " has " + connected + " replica(s) connected");
                }
            });
        } catch (RuntimeException e) {
            problems.add("the replication state could not be read (" + e.getMessage() + ")");
        }
        return problems;
    }

    @Override
    public void destroy() {
        if (durableWait != null) {
            durableWait.close();
        }
    }

    /** What keeps the servers from fsyncing every write before replying; empty when nothing does. */
    List<String> check() {
        List<String> problems = new ArrayList<>();
        try {
            RedisPrimaries.forEach(connections, (name, server) -> problems.addAll(problems(name, server.config("append*"))));
        } catch (RuntimeException e) {
            problems.add("its settings could not be read (" + e.getMessage() + ")");
        }
        return problems;
    }

    /**
     * What keeps {@code WAITAOF 1 N} from making the answer wait for the primary's disk: a primary without
     * {@code appendonly yes}, with an {@code appendfsync} other than {@code always} or {@code everysec} (with
     * {@code no} the server never fsyncs on its own), or older than Redis 7.2 (Valkey reports 7.2.4 here); empty
     * when nothing does.
     */
    List<String> waitAofProblems() {
        List<String> problems = new ArrayList<>();
        try {
            RedisPrimaries.forEach(connections, (name, server) -> problems.addAll(
                    waitAofProblems(name, server.config("append*"), server.info("server"))));
        } catch (RuntimeException e) {
            problems.add("its settings could not be read (" + e.getMessage() + ")");
        }
        return problems;
    }

    static List<String> waitAofProblems(String node, Properties config, Properties server) {
        List<String> problems = new ArrayList<>();
        String version = server.getProperty("redis_version", "0");
        if (!hasWaitAof(version)) {
            problems.add(node + " is Redis " + version + ", without WAITAOF");
        }
        String fsync = config.getProperty("appendfsync", "(unknown)");
        if (!"yes".equalsIgnoreCase(config.getProperty("appendonly"))) {
            problems.add(node + " has appendonly " + config.getProperty("appendonly", "(unknown)"));
        } else if (!"always".equalsIgnoreCase(fsync) && !"everysec".equalsIgnoreCase(fsync)) {
            problems.add(node + " has appendfsync " + fsync);
        }
        return problems;
    }

    /** Redis 7.2 brought {@code WAITAOF}; Valkey reports {@code redis_version:7.2.4}. */
    public static boolean hasWaitAof(String redisVersion) {
        String[] parts = redisVersion.trim().split("\\.");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > 7 || major == 7 && minor >= 2;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static List<String> problems(String node, Properties config) {
        List<String> problems = new ArrayList<>();
        if (!"yes".equalsIgnoreCase(config.getProperty("appendonly"))) {
            problems.add(node + " has appendonly " + config.getProperty("appendonly", "(unknown)"));
        } else if (!"always".equalsIgnoreCase(config.getProperty("appendfsync"))) {
            problems.add(node + " has appendfsync " + config.getProperty("appendfsync", "(unknown)"));
        }
        return problems;
    }
}
