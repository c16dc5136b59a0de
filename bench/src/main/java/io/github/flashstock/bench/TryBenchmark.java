package io.github.flashstock.bench;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.stock.redis.InitScript;
import io.github.flashstock.inventory.stock.redis.TryOutcome;
import io.github.flashstock.inventory.stock.redis.TryScript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Try throughput on one hot SKU with 50 concurrent callers, three ways, interleaved over several rounds:
 * <ol>
 *   <li>the service's Java path in-process: {@link TryScript} (keys, arguments, EVALSHA through Spring Data
 *       Redis and Lettuce, reply decoding), every call a new reservation;</li>
 *   <li>{@code redis-benchmark} sending EVALSHA of the same {@code try.lua}, 50 clients, random reservation ids;</li>
 *   <li>{@code mariadb-slap} running the MySQL alternative, a conditional {@code UPDATE} of one hot row, 50 clients.</li>
 * </ol>
 * Prints each round and the medians with the two ratios. Runs on the devstack (Redis database 15, flushed
 * before each round; inventory database, row {@code bench-hot}). Arguments: {@code [rounds] [requests]}.
 */
public final class TryBenchmark {

    private static final int CLIENTS = 50;
    private static final String SKU = "bench-hot";
    private static final int BENCH_DB = 15;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        DevStack stack = DevStack.fromEnvironment();
        Set<Component> needed = EnumSet.of(Component.REDIS, Component.MARIADB);
        boolean wasUp = stack.isUp(needed);
        stack.up(needed);
        Endpoints e = stack.endpoints();
        try {
            run(e, rounds, requests);
        } finally {
            if (!wasUp) {
                stack.down();
            }
        }
        System.exit(0);
    }

    private static void run(Endpoints e, int rounds, int requests) throws Exception {
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(e.redisHost(), e.redisPort());
        conf.setDatabase(BENCH_DB);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(conf);
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        TryScript tryScript = new TryScript(redis);
        InitScript init = new InitScript(redis);
        byte[] source = new ClassPathResource("lua/try.lua").getContentAsByteArray();

        List<Double> java = new ArrayList<>();
        List<Double> reference = new ArrayList<>();
        List<Double> mysql = new ArrayList<>();
        System.out.printf("Try throughput, one hot SKU, %d concurrent callers, %d requests per run (%s, %d cores)%n",
                CLIENTS, requests, System.getProperty("os.name"), Runtime.getRuntime().availableProcessors());
        // JIT warm-up of the Java path, not measured
        fresh(redis, init, source);
        javaPath(tryScript, Math.min(requests, 50_000));
        for (int round = 1; round <= rounds; round++) {
            String sha = fresh(redis, init, source);
            double r = redisBenchmark(e, sha, requests);
            fresh(redis, init, source);
            double j = javaPath(tryScript, requests);
            double m = mariadbSlap(e, Math.max(10_000, requests / 10));
            reference.add(r);
            java.add(j);
            mysql.add(m);
            System.out.printf("round %d: java path %,.0f/s | redis-benchmark EVALSHA %,.0f/s | MariaDB hot-row UPDATE %,.0f/s%n",
                    round, j, r, m);
        }
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().flushDb();
            return null;
        });
        factory.destroy();
        double mj = median(java);
        double mr = median(reference);
        double mm = median(mysql);
        System.out.println();
        System.out.println("| path | Tries/s (median of " + rounds + ") |");
        System.out.println("|---|---|");
        System.out.printf("| service Java path (TryScript, in-process) | %,.0f |%n", mj);
        System.out.printf("| redis-benchmark EVALSHA try.lua | %,.0f |%n", mr);
        System.out.printf("| MariaDB conditional UPDATE, one row (mariadb-slap) | %,.0f |%n", mm);
        System.out.printf("java / redis-benchmark = %.2f   java / MariaDB = %.1f%n", mj / mr, mj / mm);
    }

    /** Empties the benchmark database, creates the hot SKU with stock that never runs out, loads the script. */
    private static String fresh(StringRedisTemplate redis, InitScript init, byte[] source) {
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().flushDb();
            return null;
        });
        init.run(SKU, 1_000_000_000L, 0, 0, 1);
        return redis.execute((RedisCallback<String>) c -> c.scriptingCommands().scriptLoad(source));
    }

    private static double javaPath(TryScript tryScript, int requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        AtomicLong next = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<StockLine> line = List.of(new StockLine(SKU, 1));
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < CLIENTS; w++) {
            workers.add(pool.submit(() -> {
                start.await();
                for (long i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                    TryOutcome o = tryScript.run("bench-xid-" + i, "r-" + i, i, "u-" + (i % 100_000), line);
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
        return requests / seconds;
    }

    private static double redisBenchmark(Endpoints e, String sha, int requests) throws IOException, InterruptedException {
        List<String> cmd = List.of("redis-benchmark", "-h", e.redisHost(), "-p", Integer.toString(e.redisPort()),
                "--dbnum", Integer.toString(BENCH_DB), "-c", Integer.toString(CLIENTS), "-n", Integer.toString(requests),
                "-r", "1000000000", "--csv",
                "EVALSHA", sha, "1", "inv:{" + SKU + "}", "bx-__rand_int__", "br-__rand_int__", "1", "bu-__rand_int__",
                Long.toString(System.currentTimeMillis()), "1");
        String out = runProcess(cmd);
        // --csv: a header line, then "test","rps",...
        for (String l : out.lines().toList()) {
            String[] cells = l.replace("\"", "").split(",");
            if (cells.length > 1 && cells[0].startsWith("EVALSHA")) {
                return Double.parseDouble(cells[1]);
            }
        }
        throw new IllegalStateException("no result from redis-benchmark:\n" + out);
    }

    /** Units locked by the run divided by its wall time: the rate of successful conditional updates. */
    private static double mariadbSlap(Endpoints e, int queries) throws Exception {
        String update = "UPDATE sku_stock SET locked = locked + 1, version = version + 1 WHERE sku_id = '" + SKU
                + "' AND total - sold - locked >= 1";
        try (Connection c = DriverManager.getConnection(e.jdbcUrl("inventory"), e.dbUser("inventory"), e.dbPassword());
             Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO sku_stock (sku_id, total) VALUES ('" + SKU + "', 1000000000000) "
                    + "ON DUPLICATE KEY UPDATE locked = 0");
            long before = locked(s);
            long t0 = System.nanoTime();
            runProcess(List.of("mariadb-slap", "--no-defaults", "--host=127.0.0.1",
                    "--port=" + e.jdbcUrl("inventory").replaceAll(".*:(\\d+)/.*", "$1"),
                    "--user=" + e.dbUser("inventory"), "--password=" + e.dbPassword(), "--create-schema=inventory",
                    "--concurrency=" + CLIENTS, "--iterations=1", "--number-of-queries=" + queries,
                    "--query=" + update));
            double seconds = (System.nanoTime() - t0) / 1e9;
            long done = locked(s) - before;
            s.executeUpdate("UPDATE sku_stock SET locked = 0 WHERE sku_id = '" + SKU + "'");
            return done / seconds;
        }
    }

    private static long locked(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT locked FROM sku_stock WHERE sku_id = '" + SKU + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String runProcess(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd.subList(0, 1)) + " failed:\n" + out);
        }
        return out;
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
