package io.github.flashstock.inventory.console;

import io.github.flashstock.inventory.events.EventBacklog;
import io.github.flashstock.inventory.events.StockEventForwarder;
import io.github.flashstock.inventory.redis.RedisDurability;
import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.redis.RedisMemory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Reads this instance for the console ({@link InstanceReading}). The meters are read as they are; what costs server
 * round trips (the durability check, the event backlog: one XLEN per SKU, the coordinators' probe) is read on a thread
 * of its own, again whenever a reading is asked for and the last one is older than {@link #SLOW_EVERY_MILLIS}, so an
 * answer never waits for Redis or MySQL under a sale's load (but the first) and says when its health was read
 * ({@link InstanceReading.Health#checkedMillis()}). Nothing is read while nobody asks.
 */
@Component
public class InstanceReadings implements DisposableBean {

    static final long SLOW_EVERY_MILLIS = 500;

    private final MeterRegistry meters;
    private final RedisHealth redis;
    private final RedisDurability durability;
    private final RedisMemory memory;
    private final ObjectProvider<StockEventForwarder> forwarder;
    private final Coordinators coordinators;
    private final Environment environment;
    private final Clock clock;
    private final long started = ManagementFactory.getRuntimeMXBean().getStartTime();
    private final ExecutorService refresher = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "console-readings");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile Slow slow;

    InstanceReadings(MeterRegistry meters, RedisHealth redis, RedisDurability durability, RedisMemory memory,
                     ObjectProvider<StockEventForwarder> forwarder, Coordinators coordinators, Environment environment,
                     ObjectProvider<Clock> clock) {
        this.meters = meters;
        this.redis = redis;
        this.durability = durability;
        this.memory = memory;
        this.forwarder = forwarder;
        this.coordinators = coordinators;
        this.environment = environment;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** What the slow readings found, and when. */
    private record Slow(long atMillis, List<String> shortfalls, Long backlog, Long lagMillis,
                        List<InstanceReading.Coordinator> coordinators) {
    }

    /** This instance's address as it registers: {@code server.address} (127.0.0.1 by default) and its port. */
    public String address() {
        return environment.getProperty("server.address", "127.0.0.1") + ":"
                + environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
    }

    public InstanceReading read() {
        long now = clock.millis();
        Slow s = slow(now);
        InstanceReading.Health health = new InstanceReading.Health(redis.state(), memory.nodes(),
                durability.level().setting(), s.shortfalls(), s.backlog(), s.lagMillis(),
                s.coordinators(), s.atMillis());
        return new InstanceReading(address(), now, started, tries(), phases(), latencies(), health);
    }

    private Slow slow(long now) {
        Slow last = slow;
        if (last == null) {
            synchronized (this) {
                if (slow == null) {
                    slow = readSlow();
                }
                return slow;
            }
        }
        if (now - last.atMillis() >= SLOW_EVERY_MILLIS && refreshing.compareAndSet(false, true)) {
            try {
                refresher.execute(() -> {
                    try {
                        slow = readSlow();
                    } finally {
                        refreshing.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                refreshing.set(false); // shutting down
            }
        }
        return last;
    }

    private Slow readSlow() {
        Long backlog = null;
        Long lag = null;
        StockEventForwarder events = forwarder.getIfAvailable();
        if (events != null) {
            try {
                EventBacklog b = events.backlog();
                backlog = b.entries();
                lag = b.lagMillis(clock.millis());
            } catch (RuntimeException e) {
                // Redis (or MySQL's SKU list) could not be asked: unknown, shown as such
            }
        }
        List<String> shortfalls = durability.shortfalls();
        List<InstanceReading.Coordinator> tcs = coordinators.probe();
        return new Slow(clock.millis(), shortfalls, backlog, lag, tcs);
    }

    @Override
    public void destroy() {
        refresher.shutdownNow();
    }

    private Map<String, Double> tries() {
        Map<String, Double> tries = new TreeMap<>();
        for (Counter c : meters.find("inventory.reservations").counters()) {
            tries.merge(c.getId().getTag("outcome"), c.count(), Double::sum);
        }
        Counter early = meters.find("inventory.reservations.refused-early").counter();
        if (early != null) {
            tries.put("refused_early", early.count());
        }
        return tries;
    }

    private Map<String, Double> phases() {
        Map<String, Double> phases = new TreeMap<>();
        for (Counter c : meters.find("inventory.phases").tag("result", "done").counters()) {
            phases.merge(c.getId().getTag("phase"), c.count(), Double::sum);
        }
        return phases;
    }

    private Map<String, Map<String, Double>> latencies() {
        Map<String, Map<String, Double>> latencies = new TreeMap<>();
        for (Timer t : meters.find("inventory.phase").timers()) {
            Map<String, Double> percentiles = new TreeMap<>();
            for (ValueAtPercentile v : t.takeSnapshot().percentileValues()) {
                percentiles.put("p" + Math.round(v.percentile() * 100), v.value(TimeUnit.MILLISECONDS));
            }
            if (!percentiles.isEmpty()) {
                latencies.put(t.getId().getTag("phase"), percentiles);
            }
        }
        return latencies;
    }
}
