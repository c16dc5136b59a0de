package io.github.flashstock.bench;

import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.inventory.redis.DurableWait;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.reservation.TryCoalescer;
import io.github.flashstock.inventory.reservation.TryCoalescing;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.reservation.TryScript;
import io.github.flashstock.inventory.stock.InitScript;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What the Redis benchmarks share: a connection to the devstack's Redis (database 15, flushed before each run), the
 * hot SKU, the service's Java Try path driven by many callers, and {@code redis-benchmark} on the same script.
 */
final class RedisBench implements AutoCloseable {

    static final String SKU = "bench-hot";
    static final int BENCH_DB = 15;
    /**
     * As {@code nacos-config/inventory-service.yaml} ships it; {@code -Dbench.max-batch}, {@code -Dbench.in-flight}
     * and {@code -Dbench.linger-micros} try other values.
     */
    static final TryCoalescing COALESCING = new TryCoalescing(Integer.getInteger("bench.max-batch", 64),
            Integer.getInteger("bench.in-flight", 4), Duration.ofSeconds(3),
            Duration.ofNanos(1000L * Integer.getInteger("bench.linger-micros", 0)));

    /** Throughput and tail latency of one run, and what each call cost inside Redis. */
    record Result(double perSecond, double p99Millis, double redisMicrosPerCall) {
    }

    private final Endpoints endpoints;
    private final LettuceConnectionFactory factory;
    final StringRedisTemplate redis;
    final TryScript tryScript;
    /** The service's Try path: {@link TryScript} behind a {@link TryCoalescer} set as {@link #COALESCING}. */
    final TryCoalescer coalescer;
    private final InitScript init;
    private final byte[] source;
    /** try.lua with its stock-event append cut out: what the script cost before events were written in it. */
    private final byte[] sourceWithoutEvents;

    RedisBench(Endpoints endpoints) throws IOException {
        this.endpoints = endpoints;
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(endpoints.redisHost(),
                endpoints.redisPort());
        conf.setDatabase(BENCH_DB);
        factory = new LettuceConnectionFactory(conf);
        factory.afterPropertiesSet();
        factory.start();
        redis = new StringRedisTemplate(factory);
        tryScript = new TryScript(redis);
        coalescer = new TryCoalescer(tryScript, COALESCING, new SimpleMeterRegistry());
        init = new InitScript(redis);
        // the text the service sends: prelude.lua, then try.lua
        String tryLua = Scripts.source("try.lua");
        source = tryLua.getBytes(StandardCharsets.UTF_8);
        sourceWithoutEvents = withoutEvents(tryLua).getBytes(StandardCharsets.UTF_8);
    }

    /** The script without its last block, the one that appends the call's TRIED events to the SKUs' streams. */
    static String withoutEvents(String tryLua) {
        int from = tryLua.indexOf("local events = {} -- stock key -> the TRIED events of this call on it");
        int to = tryLua.lastIndexOf("return reply");
        if (from < 0 || to < from) {
            throw new IllegalStateException("try.lua's event block is not where the benchmark expects it");
        }
        return tryLua.substring(0, from) + tryLua.substring(to);
    }

    /**
     * Empties the benchmark database, creates the hot SKU with stock that never runs out split over
     * {@code segments}, loads the script; returns its SHA.
     */
    String fresh(int segments) {
        return fresh(segments, true);
    }

    /** As {@link #fresh(int)}; {@code events} false loads try.lua without its event append instead. */
    String fresh(int segments, boolean events) {
        flush();
        init.run(SKU, 1_000_000_000L, 0, 0, segments);
        byte[] script = events ? source : sourceWithoutEvents;
        String sha = redis.execute((RedisCallback<String>) c -> c.scriptingCommands().scriptLoad(script));
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().resetConfigStats();
            return null;
        });
        return sha;
    }

    /**
     * The server's event loop so far: passes ({@code eventloop_cycles}) and the microseconds its passes spent writing
     * and syncing the append-only file ({@code eventloop_duration_aof_sum}, {@code INFO debug}); both -1 on a server
     * that does not report them (Redis before 7.2).
     */
    long[] eventLoop() {
        java.util.Properties stats = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().info("stats"));
        java.util.Properties debug = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().info("debug"));
        return new long[] {
                Long.parseLong(stats == null ? "-1" : stats.getProperty("eventloop_cycles", "-1")),
                Long.parseLong(debug == null ? "-1" : debug.getProperty("eventloop_duration_aof_sum", "-1"))};
    }

    /** Redis's own account of the mean time one EVALSHA took since the last {@link #fresh(int)}. */
    double redisMicrosPerCall() {
        java.util.Properties stats = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().info("commandstats"));
        String evalsha = stats == null ? null : stats.getProperty("cmdstat_evalsha");
        if (evalsha == null) {
            return Double.NaN;
        }
        for (String part : evalsha.split(",")) {
            if (part.startsWith("usec_per_call=")) {
                return Double.parseDouble(part.substring("usec_per_call=".length()));
            }
        }
        return Double.NaN;
    }

    /** Runs {@code work} with the server's {@code appendfsync} set to {@code mode}, then sets it back as it was. */
    <T> T withAppendFsync(String mode, java.util.concurrent.Callable<T> work) throws Exception {
        java.util.Properties was = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().getConfig("appendfsync"));
        String before = was == null ? "always" : was.getProperty("appendfsync", "always");
        setAppendFsync(mode);
        try {
            return work.call();
        } finally {
            setAppendFsync(before);
        }
    }

    private void setAppendFsync(String mode) {
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().setConfig("appendfsync", mode);
            return null;
        });
    }

    private void flush() {
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().flushDb();
            return null;
        });
    }

    /**
     * {@code requests} Tries of one unit each, every one a new reservation, from {@code clients} threads: through the
     * {@link TryCoalescer} as the service runs them, or, with {@code coalesced} false, each alone through
     * {@link TryScript} on the caller's thread.
     */
    Result javaPath(int clients, int requests, boolean coalesced) throws Exception {
        return javaPath(clients, requests, coalesced ? coalescer : null);
    }

    /**
     * The coalesced Java path with every call of try.lua answered only once its writes are durable, as the service
     * runs it ({@link DurableWait}): on {@code replicas} replicas ({@code WAIT}, {@code inventory.durability:
     * replica}), or with {@code onDisk} on the primary's disk and {@code replicas} replicas' disks ({@code WAITAOF},
     * {@code fsync-and-replica}). The caller sets the server up and attaches the replicas.
     */
    Result javaPathWaiting(int clients, int requests, boolean onDisk, int replicas) throws Exception {
        try (DurableWait wait = new DurableWait(factory::getRequiredNativeClient, onDisk, replicas,
                Duration.ofSeconds(1), 16)) {
            // the first waits after a replica attached can take a second (its acknowledgements start slowly): not
            // measured
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            org.springframework.data.redis.core.script.RedisScript<List> probe =
                    org.springframework.data.redis.core.script.RedisScript.of(
                            "redis.call('SET', KEYS[1], '1') return {1}", List.class);
            while (true) {
                long started = System.nanoTime();
                try {
                    wait.run(probe, List.of("bench-probe"), List.of());
                    if (System.nanoTime() - started < 50_000_000L || System.nanoTime() > until) {
                        break;
                    }
                } catch (DurableWait.NotDurable notYet) {
                    if (System.nanoTime() > until) {
                        throw notYet;
                    }
                }
            }
            TryCoalescer waiting = new TryCoalescer(new TryScript(redis, wait), COALESCING, new SimpleMeterRegistry());
            try {
                return javaPath(clients, requests, waiting);
            } finally {
                waiting.destroy();
            }
        }
    }

    /**
     * The coalesced Java path with every Try through the service's Redis breaker ({@code RedisHealth}, configured as
     * {@code nacos-config/inventory-service.yaml} ships it, with its lock-free window), as the Try action calls it.
     */
    Result javaPathThroughTheBreaker(int clients, int requests) throws Exception {
        io.github.flashstock.inventory.redis.RedisHealth health = new io.github.flashstock.inventory.redis
                .RedisHealth(io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry.of(
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .slidingWindowType(io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType
                                .TIME_BASED)
                        .slidingWindowSize(5).minimumNumberOfCalls(10).failureRateThreshold(50)
                        .slidingWindowSynchronizationStrategy(io.github.resilience4j.circuitbreaker.CircuitBreakerConfig
                                .SlidingWindowSynchronizationStrategy.LOCK_FREE)
                        .build()));
        return javaPath(clients, requests, request -> health.call(() -> coalescer.reserve(request)));
    }

    /** The coalesced Java path as {@link #javaPath(int, int, boolean)} runs it, with other coalescing settings. */
    Result javaPath(int clients, int requests, TryCoalescing coalescing) throws Exception {
        TryCoalescer other = new TryCoalescer(tryScript, coalescing, new SimpleMeterRegistry());
        try {
            return javaPath(clients, requests, other);
        } finally {
            other.destroy();
        }
    }

    /** {@code through} null: each Try alone through {@link #tryScript} on the caller's thread. */
    private Result javaPath(int clients, int requests, TryCoalescer through) throws Exception {
        return javaPath(clients, requests, through == null ? request -> tryScript.run(List.of(request)).get(0)
                : through::reserve);
    }

    private Result javaPath(int clients, int requests,
                            java.util.function.Function<TryRequest, TryOutcome> path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        AtomicLong next = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<StockLine> line = List.of(new StockLine(SKU, 1));
        long[] nanos = new long[requests];
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < clients; w++) {
            workers.add(pool.submit(() -> {
                start.await();
                for (long i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                    long t = System.nanoTime();
                    TryRequest request = new TryRequest("bench-xid-" + i, "r-" + i, i, "u-" + (i % 100_000), line);
                    TryOutcome o = path.apply(request);
                    nanos[(int) i] = System.nanoTime() - t;
                    if (!(o instanceof TryOutcome.Reserved)) {
                        throw new IllegalStateException("unexpected " + o);
                    }
                }
                return null;
            }));
        }
        long t0 = System.nanoTime();
        start.countDown();
        for (Future<?> f : workers) {
            f.get(10, TimeUnit.MINUTES);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        Arrays.sort(nanos);
        return new Result(requests / seconds, nanos[(int) Math.ceil(0.99 * requests) - 1] / 1e6, redisMicrosPerCall());
    }

    /** {@code redis-benchmark}: EVALSHA of the same script, {@code clients} connections, random reservation ids. */
    Result redisBenchmark(String sha, int clients, int requests) throws IOException, InterruptedException {
        return redisBenchmark(sha, clients, requests, 1);
    }

    /**
     * {@code redis-benchmark} sending {@code tries} Tries, {@code perCall} reservations in each EVALSHA (1: the plain
     * case; more: the shape of the calls the service's coalescing makes). Rates and Redis time are per Try; p99 is
     * per call.
     */
    Result redisBenchmark(String sha, int clients, int tries, int perCall) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(endpoints.config().redisTool("benchmark"), "-h",
                endpoints.redisHost(), "-p",
                Integer.toString(endpoints.redisPort()), "--dbnum", Integer.toString(BENCH_DB),
                "-c", Integer.toString(clients), "-n", Integer.toString(tries / perCall), "-r", "1000000000", "--csv",
                "EVALSHA", sha, "1", "inv:{" + SKU + "}"));
        for (int i = 0; i < perCall; i++) {
            // each reservation: xid, reservation, branch, user, 1 line, (key 1, quantity 1); every placeholder gets
            // its own random number
            cmd.addAll(List.of("bx-__rand_int__", "br-__rand_int__", "1", "bu-__rand_int__", "1", "1", "1"));
        }
        String out = run(cmd);
        // --csv: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",...
        for (String l : out.lines().toList()) {
            String[] cells = l.replace("\"", "").split(",");
            if (cells.length > 6 && cells[0].startsWith("EVALSHA")) {
                return new Result(Double.parseDouble(cells[1]) * perCall, Double.parseDouble(cells[6]),
                        redisMicrosPerCall() / perCall);
            }
        }
        throw new IllegalStateException("no result from redis-benchmark:\n" + out);
    }

    /** The server's name and version as it reports them: {@code Valkey 8.0.1}, {@code Redis 7.0.15}. */
    String serverVersion() {
        java.util.Properties info = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().info("server"));
        if (info != null && info.getProperty("valkey_version") != null) {
            return "Valkey " + info.getProperty("valkey_version");
        }
        return "Redis " + (info == null ? "?" : info.getProperty("redis_version"));
    }

    /** Whether the server has {@code WAITAOF} (Redis 7.2+; Valkey reports 7.2.4). */
    boolean hasWaitAof() {
        java.util.Properties info = redis.execute((RedisCallback<java.util.Properties>) c ->
                c.serverCommands().info("server"));
        return info != null && io.github.flashstock.inventory.redis.RedisDurability.hasWaitAof(
                info.getProperty("redis_version", "0"));
    }

    static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(cmd.get(0) + " failed:\n" + out);
        }
        return out;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    @Override
    public void close() {
        flush();
        coalescer.destroy();
        factory.destroy();
    }
}
