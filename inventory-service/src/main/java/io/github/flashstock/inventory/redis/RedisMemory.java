package io.github.flashstock.inventory.redis;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
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
 * It also publishes each node's memory in use, its {@code maxmemory} and the headroom left
 * ({@code inventory.redis.memory.used}, {@code inventory.redis.memory.max}, by node, max 0: no limit;
 * {@code inventory.redis.memory.headroom}, the share of {@code maxmemory} still free, NaN without a limit), and warns
 * when a node uses more than {@code inventory.redis.memory-warning} of its {@code maxmemory} (0.8 by default): logged
 * once as it crosses, counted in {@code inventory.redis.memory.warnings}, shown on the console ({@link #nodes}). A
 * node at its limit refuses writes ({@code OOM}), and the service treats it as Redis away.
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

    /** The share of {@code maxmemory} in use above which a node is warned of. */
    private final double warning;
    /** The nodes warned of, until they drop below the threshold again. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public RedisMemory(RedisConnectionFactory connections, RedisHealth health, MeterRegistry meters,
                       @Value("${inventory.redis.memory-warning:0.8}") double warning) {
        if (!(warning > 0 && warning <= 1)) {
            throw new IllegalArgumentException("inventory.redis.memory-warning must be above 0 and at most 1 (a share"
                    + " of maxmemory), not " + warning);
        }
        this.connections = connections;
        this.health = health;
        this.meters = meters;
        this.warning = warning;
    }

    /**
     * One node's memory at its last reading.
     *
     * @param usedBytes memory in use ({@code used_memory})
     * @param maxBytes  its {@code maxmemory}; 0 when it has none (it may use the machine's memory)
     * @param warning   the node uses more than the warning share of {@code maxmemory}
     */
    public record NodeMemory(String node, long usedBytes, long maxBytes, boolean warning) {

        /** The share of {@code maxmemory} still free; NaN when the node has no {@code maxmemory}. */
        public double headroom() {
            return headroom(usedBytes, maxBytes);
        }

        static double headroom(long used, long max) {
            return max <= 0 ? Double.NaN : Math.max(0, max - used) / (double) max;
        }
    }

    /** Every node's memory at its last reading (every {@code inventory.redis.memory-check-interval}), by node. */
    public List<NodeMemory> nodes() {
        return readings.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> new NodeMemory(e.getKey(), e.getValue()[0], e.getValue()[1],
                        above(e.getValue()[0], e.getValue()[1], warning)))
                .toList();
    }

    static boolean above(long used, long max, double warning) {
        return max > 0 && used > warning * max;
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
            Gauge.builder("inventory.redis.memory.headroom", fresh, r -> NodeMemory.headroom(r[0], r[1]))
                    .tag("node", n).description("the share of the Redis node's maxmemory still free (NaN: no limit)")
                    .register(meters);
            return fresh;
        });
        reading[0] = used;
        reading[1] = max;
        if (above(used, max, warning)) {
            if (warned.add(node)) {
                meters.counter("inventory.redis.memory.warnings", "node", node).increment();
                log.warn("Redis node {} uses {} of its maxmemory {} bytes ({} bytes): above the warning share {}; at"
                        + " the limit it refuses writes and the sale goes on from the allotments only (raise maxmemory,"
                        + " or see docs/operations.md, \"Redis memory\")", node,
                        String.format(java.util.Locale.ROOT, "%.0f%%", 100.0 * used / max), max, used, warning);
            }
        } else if (warned.remove(node)) {
            log.info("Redis node {} uses {} of {} bytes again: below the warning share {}", node, used, max, warning);
        }
    }
}
