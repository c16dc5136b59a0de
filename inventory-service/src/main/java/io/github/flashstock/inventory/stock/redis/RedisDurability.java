package io.github.flashstock.inventory.stock.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * What an acknowledged Try survives ({@code inventory.durability}), checked against the servers at start: the
 * service refuses to run with a Redis that cannot give the guarantee it was told to promise.
 * <ul>
 *   <li>{@code fsync} (the default): a Try is answered only once its writes are on disk. Every node the service
 *       writes to must run {@code appendonly yes} with {@code appendfsync always}, under which Redis fsyncs the AOF
 *       before it replies (once per event loop, so the Tries of one coalesced call share it). A Redis killed or a
 *       machine that loses power keeps every Try it acknowledged.</li>
 *   <li>{@code none}: whatever the server does; with {@code appendfsync everysec} a machine crash can lose about
 *       the last second of acknowledged Tries (units then sold twice: docs/design.md, "What each failure does").
 *       A warning says so at every start.</li>
 * </ul>
 * On a Redis Cluster every primary is checked. A server that will not say its settings ({@code CONFIG} renamed or
 * denied) cannot be trusted with {@code fsync}.
 */
@Component
public class RedisDurability implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(RedisDurability.class);

    /** The guarantees a Try can be given. */
    public enum Level { NONE, FSYNC }

    private final RedisConnectionFactory connections;
    private final Level level;

    public RedisDurability(RedisConnectionFactory connections, @Value("${inventory.durability:fsync}") String level) {
        this.connections = connections;
        try {
            this.level = Level.valueOf(level.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("inventory.durability must be fsync or none, was '" + level + "'", e);
        }
    }

    public Level level() {
        return level;
    }

    @Override
    public void afterPropertiesSet() {
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
