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
 *       machine that loses power keeps every Try it acknowledged.</li>
 *   <li>{@code replica}: a Try is answered only once its writes are on at least {@code inventory.replica-wait.replicas}
 *       replicas of the primary that ran it ({@link ReplicaWait}: the script and a {@code WAIT} on a connection of
 *       their own, one wait per coalesced call; Confirm and Cancel wait the same way). A primary killed and
 *       replaced by its replica (Redis Cluster, Sentinel) keeps every Try and phase it acknowledged; a wait that times out fails the Try, whose global transaction
 *       rolls back. Every primary must have that many replicas connected at start. The servers' own fsync setting
 *       is not checked: losing a primary and its replicas at once (one machine, one power cut) is what
 *       {@code fsync} is for.</li>
 *   <li>{@code none}: whatever the server does; with {@code appendfsync everysec} a machine crash can lose about
 *       the last second of acknowledged Tries (units then sold twice: docs/design.md, "What each failure does").
 *       A warning says so at every start.</li>
 * </ul>
 * On a Redis Cluster every primary is checked. A server that will not say its settings ({@code CONFIG} renamed or
 * denied) cannot be trusted with {@code fsync}.
 */
@Component
public class RedisDurability implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RedisDurability.class);

    /** The guarantees a Try can be given. */
    public enum Level { NONE, FSYNC, REPLICA }

    private final RedisConnectionFactory connections;
    private final Level level;
    private final int replicas;
    private final Duration replicaTimeout;
    private final int replicaConnections;
    private ReplicaWait replicaWait;

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
            this.level = Level.valueOf(level.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("inventory.durability must be fsync, replica or none, was '" + level + "'",
                    e);
        }
        this.replicas = replicas;
        this.replicaTimeout = replicaTimeout;
        this.replicaConnections = replicaConnections;
    }

    public Level level() {
        return level;
    }

    /** What runs the Tries under {@code replica}; empty under the other levels. */
    public Optional<ReplicaWait> replicaWait() {
        return Optional.ofNullable(replicaWait);
    }

    @Override
    public void afterPropertiesSet() {
        if (level == Level.REPLICA) {
            startReplicaWait();
            return;
        }
        List<String> problems = check();
        if (level == Level.NONE) {
            log.warn("inventory.durability=none: Tries are acknowledged before Redis has them on disk; a machine crash"
                    + " can lose acknowledged Tries and sell their units twice{}",
                    problems.isEmpty() ? " (the servers fsync every write now, but nothing checks it stays so)" : "");
            return;
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("inventory.durability=fsync, but Redis would acknowledge Tries before they"
                    + " are on disk: " + String.join("; ", problems) + ". Set appendonly yes and appendfsync always"
                    + " on every node, or inventory.durability=none to run without the guarantee.");
        }
        log.info("inventory.durability=fsync: every node has appendonly yes, appendfsync always");
    }

    /**
     * What keeps the level from holding now, read from the servers as the check at start reads it: under
     * {@code fsync} the nodes without {@code appendonly yes} and {@code appendfsync always}, under {@code replica} the
     * primaries short of replicas; empty when it holds ({@code none} promises nothing, so it always holds).
     */
    public List<String> shortfalls() {
        return switch (level) {
            case NONE -> List.of();
            case FSYNC -> check();
            case REPLICA -> replicaProblems();
        };
    }

    private void startReplicaWait() {
        if (replicas < 1) {
            throw new IllegalStateException("inventory.replica-wait.replicas must be at least 1, was " + replicas);
        }
        List<String> problems = replicaProblems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("inventory.durability=replica needs " + replicas + " replica(s) connected"
                    + " to every primary: " + String.join("; ", problems) + ". Add replicas, lower"
                    + " inventory.replica-wait.replicas, or choose inventory.durability=fsync or none.");
        }
        if (!(connections instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("inventory.durability=replica needs the Lettuce Redis client");
        }
        replicaWait = new ReplicaWait(lettuce::getRequiredNativeClient, replicas, replicaTimeout, replicaConnections);
        log.info("inventory.durability=replica: a Try is answered once {} replica(s) have its writes (waiting at most"
                + " {} ms)", replicas, replicaTimeout.toMillis());
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
        if (replicaWait != null) {
            replicaWait.close();
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
