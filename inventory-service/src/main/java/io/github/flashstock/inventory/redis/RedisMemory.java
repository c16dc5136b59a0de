package io.github.flashstock.inventory.redis;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Redis's memory as a limit of the sale. A Redis that evicts keys loses writes without a word: the finished fence
 * records carry a TTL, so a {@code volatile-*} policy drops them first, and a Confirm replayed after that would find no
 * record; under {@code allkeys-*} open records, buyer counts and segments go too. Every node must run
 * {@code maxmemory-policy noeviction}, read from {@code INFO memory} (which managed services keep when they rename
 * {@code CONFIG}):
 * <ul>
 *     <li>at start, a node with any other policy stops the service, naming the node, the setting and the fix;</li>
 *     <li>while running ({@code inventory.redis.memory-check-interval}, 5 s), a node that starts evicting forces the
 *     Redis breaker open ({@link RedisHealth#forceOpen}): Tries go to the MySQL store's allotment, as when Redis is
 *     down, Confirms and Cancels wait; logged, counted ({@code inventory.redis.evicting}). Once every node is back at
 *     {@code noeviction} the breaker tests Redis again (half-open) and closes as after an outage.</li>
 * </ul>
 * It also publishes each node's memory in use and its {@code maxmemory}
 * ({@code inventory.redis.memory.used}, {@code inventory.redis.memory.max}, by node; max 0: no limit).
 */
@Component
public class RedisMemory implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(RedisMemory.class);

    /** The only policy under which Redis refuses a write rather than dropping a key. */
    public static final String SAFE_POLICY = "noeviction";

    private final RedisConnectionFactory connections;
    private final RedisHealth health;
    private final MeterRegistry meters;
    /** Whether this check forced the breaker open (and so must let it test Redis again). */
    private final AtomicBoolean forcedOpen = new AtomicBoolean();
    /** Each node's last reading: used bytes, maxmemory. */
    private final Map<String, long[]> readings = new ConcurrentHashMap<>();

    public RedisMemory(RedisConnectionFactory connections, RedisHealth health, MeterRegistry meters) {
        this.connections = connections;
        this.health = health;
        this.meters = meters;
    }

    /** What is wrong with one node's memory policy ({@code INFO memory}); empty when it never evicts. */
    static Optional<String> evicting(String node, Properties memory) {
        String policy = memory.getProperty("maxmemory_policy", "(not reported)");
        return SAFE_POLICY.equals(policy) ? Optional.empty()
                : Optional.of(node + " has maxmemory-policy " + policy);
    }

    /** The nodes that evict now, with their policy; empty when none does. */
    List<String> evictingNodes() {
        List<String> problems = new ArrayList<>();
        RedisPrimaries.forEach(connections, (name, server) -> {
            Properties memory = server.info("memory");
            evicting(name, memory).ifPresent(problems::add);
            observe(name, memory);
        });
        return problems;
    }

    @Override
    public void afterPropertiesSet() {
        List<String> problems;
        try {
            problems = evictingNodes();
        } catch (RuntimeException e) {
            log.warn("Redis's memory policy could not be read at start ({}); it is read again every few seconds,"
                    + " and Redis is not used while it evicts", e.toString());
            return;
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(refusal(problems));
        }
        log.info("Redis memory: every node has maxmemory-policy noeviction");
    }

    static String refusal(List<String> problems) {
        return "Redis would drop keys when its memory is full: " + String.join("; ", problems) + ". An evicting"
                + " Redis drops fence records and buyer counts of the sale, and a replayed phase or the next Try then"
                + " sells units twice or breaks the purchase limit. Set maxmemory-policy noeviction on every node (the"
                + " managed services, AWS ElastiCache and Google Memorystore, default to volatile-lru: change it in"
                + " the parameter group or instance configuration) and give maxmemory room for the sale"
                + " (docs/operations.md, \"Redis memory\").";
    }

    /** The check while running: the breaker is kept open while any node evicts. */
    @Scheduled(initialDelayString = "${inventory.redis.memory-check-interval:5s}",
            fixedDelayString = "${inventory.redis.memory-check-interval:5s}")
    public void check() {
        List<String> problems;
        try {
            problems = evictingNodes();
        } catch (RuntimeException e) {
            return; // Redis out of reach: the breaker's own business
        }
        if (!problems.isEmpty()) {
            meters.counter("inventory.redis.evicting").increment();
            if (forcedOpen.compareAndSet(false, true)) {
                log.error("{} Redis is not used until every node is back at noeviction: Tries go to the MySQL"
                        + " store's allotment, Confirms and Cancels wait.", refusal(problems));
                health.forceOpen();
            }
        } else if (forcedOpen.compareAndSet(true, false)) {
            log.warn("Redis memory: every node has maxmemory-policy noeviction again; testing Redis before it sells");
            health.endForcedOpen();
        }
    }

    private void observe(String node, Properties memory) {
        long used = Long.parseLong(memory.getProperty("used_memory", "0"));
        long max = Long.parseLong(memory.getProperty("maxmemory", "0"));
        long[] reading = readings.computeIfAbsent(node, n -> {
            long[] fresh = new long[2];
            Gauge.builder("inventory.redis.memory.used", fresh, r -> r[0]).tag("node", n).baseUnit("bytes")
                    .description("memory the Redis node uses").register(meters);
            Gauge.builder("inventory.redis.memory.max", fresh, r -> r[1]).tag("node", n).baseUnit("bytes")
                    .description("the Redis node's maxmemory (0: no limit)").register(meters);
            return fresh;
        });
        reading[0] = used;
        reading[1] = max;
    }
}
