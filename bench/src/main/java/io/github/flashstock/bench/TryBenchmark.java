package io.github.flashstock.bench;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.inventory.mysqlstore.MysqlStoreCoalescing;
import io.github.flashstock.inventory.reservation.TryCoalescer;
import io.github.flashstock.inventory.reservation.TryScript;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Try throughput on one hot SKU with 50 concurrent callers, three ways, interleaved over several rounds:
 * <ol>
 *   <li>the service's Java path in-process: {@link TryCoalescer} over {@link TryScript} (keys, arguments, EVALSHA
 *       through Spring Data Redis and Lettuce, reply decoding), every call a new reservation; and, for comparison,
 *       the same without coalescing (every Try its own script call on its caller's thread);</li>
 *   <li>{@code redis-benchmark} sending EVALSHA of the same {@code try.lua}, 50 clients, random reservation ids, one
 *       reservation per call; and again with max-batch reservations per call, the shape of the coalesced calls, as
 *       the ceiling of what Redis does with such calls; and both again with the script's stock-event append cut out
 *       (the {@code XADD} of the call's TRIED events), which prices writing the events in the script;</li>
 *   <li>{@code mariadb-slap} running the MySQL alternative, a conditional {@code UPDATE} of one hot row, 50 clients;
 *       and beside it the service's MySQL store in-process ({@link MysqlBench}: the Try path while Redis cannot take
 *       Tries, the concurrent Tries of the SKU coalesced into shared transactions, each with its ledger row and the
 *       allotment's units), 50 callers, once without and once with a per-user limit, and once more without
 *       coalescing (every Try its own transaction, max-batch 1).</li>
 * </ol>
 * The devstack's Redis runs {@code appendfsync always}, what {@code inventory.durability: fsync} (the default)
 * requires; one more row runs the coalesced Java path with the server set to {@code everysec} for that run (what
 * {@code durability: none} permits), and puts {@code always} back; and one more the same way with a replica of the
 * devstack's Redis attached for the run ({@link BenchReplica}) and the calls waiting for it
 * ({@code durability: replica}).
 * A servers' table runs the Java path under each durability level ({@code fsync-and-replica} with a replica that keeps
 * an AOF, where the server has {@code WAITAOF}) and the server's own benchmark on the devstack's server (Valkey 8 by
 * default) and, in turn within each round, on the other kind (Redis 7.0), which the benchmark starts in a devstack
 * home of its own on port {@code -Dbench.other-port} (16479) and stops after ({@code -Dbench.other-server=none}
 * leaves it out).
 * Prints each round and the medians with the two ratios. Runs on the devstack (Redis database 15, flushed
 * before each round; inventory database, row {@code bench-hot}). Arguments: {@code [rounds] [requests]}.
 */
public final class TryBenchmark {

    private static final int CLIENTS = 50;
    /** Reservations per call in the second redis-benchmark run: the coalescing's max-batch. */
    private static final int PER_CALL = RedisBench.COALESCING.maxBatch();
    private static final String SKU = RedisBench.SKU;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        DevStack stack = DevStack.fromEnvironment();
        Set<Component> needed = EnumSet.of(Component.REDIS, Component.MARIADB);
        boolean wasUp = stack.isUp(needed);
        stack.up(needed);
        Endpoints e = stack.endpoints();
        // the other Redis protocol server, in a devstack home and on a port of its own, for the servers' table
        DevStack other = otherServer(e);
        try {
            if (other != null) {
                other.up(EnumSet.of(Component.REDIS));
            }
            run(e, other == null ? null : other.endpoints(), rounds, requests);
        } finally {
            if (other != null) {
                other.down();
            }
            if (!wasUp) {
                stack.down();
            }
        }
        System.exit(0);
    }

    /**
     * A devstack of Redis alone, of the server the main one does not run ({@code -Dbench.other-server}: {@code redis}
     * beside Valkey, {@code valkey} beside Redis; {@code none} for no second server), on {@code -Dbench.other-port}
     * (16479) with its own home next to the main one.
     */
    private static DevStack otherServer(Endpoints main) {
        String name = System.getProperty("bench.other-server",
                main.redisServer().equals("valkey") ? "redis" : "valkey");
        if (name.equals("none")) {
            return null;
        }
        java.util.Map<String, String> settings = new java.util.HashMap<>();
        for (String option : main.config().asSystemProperties()) {
            int eq = option.indexOf('=');
            settings.put(option.substring(2, eq), option.substring(eq + 1));
        }
        settings.put("devstack.redis.server", name);
        settings.put("devstack.redis.port", System.getProperty("bench.other-port", "16479"));
        settings.put("devstack.home", main.config().home() + "-bench-" + name);
        return new DevStack(io.github.flashstock.devstack.DevStackConfig.from(settings));
    }

    /** One server's rows of the servers' table, each a list of rates over the rounds. */
    private static final class ServerRows {
        final String server;
        final boolean waitAof;
        final java.util.Map<String, List<Double>> rows = new java.util.LinkedHashMap<>();

        ServerRows(String server, boolean waitAof) {
            this.server = server;
            this.waitAof = waitAof;
        }

        void add(String row, double perSecond) {
            rows.computeIfAbsent(row, k -> new ArrayList<>()).add(perSecond);
        }

        double median(String row) {
            List<Double> values = rows.get(row);
            return values == null ? Double.NaN : RedisBench.median(values);
        }
    }

    private static final List<String> SERVER_ROWS = List.of("fsync", "replica", "fsync-and-replica", "none",
            "redis-benchmark", "redis-benchmark-batched");

    /**
     * One round of the servers' table on {@code bench}'s server: the Java path under each durability level (those
     * that need {@code WAITAOF} only where the server has it), and the server's own benchmark on the same script.
     */
    private static void serverRound(RedisBench bench, Endpoints e, ServerRows rows, int requests) throws Exception {
        bench.fresh(1);
        rows.add("fsync", bench.javaPath(CLIENTS, requests, true).perSecond());
        bench.fresh(1);
        rows.add("none", bench.withAppendFsync("everysec", () -> bench.javaPath(CLIENTS, requests, true))
                .perSecond());
        bench.fresh(1);
        try (BenchReplica attached = BenchReplica.start(e)) {
            rows.add("replica", bench.withAppendFsync("everysec",
                    () -> bench.javaPathWaiting(CLIENTS, requests, false, 1)).perSecond());
        }
        if (rows.waitAof) {
            bench.fresh(1);
            try (BenchReplica attached = BenchReplica.start(e, true)) {
                rows.add("fsync-and-replica", bench.javaPathWaiting(CLIENTS, requests, true, 1).perSecond());
            }
        }
        rows.add("redis-benchmark", bench.redisBenchmark(bench.fresh(1), CLIENTS, requests).perSecond());
        rows.add("redis-benchmark-batched", bench.redisBenchmark(bench.fresh(1), CLIENTS, requests, PER_CALL)
                .perSecond());
    }

    private static void printServers(List<ServerRows> servers) {
        System.out.println();
        StringBuilder head = new StringBuilder("| path (Tries/s, medians) |");
        StringBuilder line = new StringBuilder("|---|");
        for (ServerRows r : servers) {
            head.append(' ').append(r.server).append(" |");
            line.append("---|");
        }
        if (servers.size() == 2) {
            head.append(" first / second |");
            line.append("---|");
        }
        System.out.println(head);
        System.out.println(line);
        java.util.Map<String, String> names = java.util.Map.of(
                "fsync", "Java path, fsync (appendfsync always)",
                "replica", "Java path, replica (everysec, one replica, WAIT 1 after every call)",
                "fsync-and-replica", "Java path, fsync-and-replica (always, one replica with AOF always, WAITAOF 1 1)",
                "none", "Java path, none (appendfsync everysec)",
                "redis-benchmark", "the server's benchmark, EVALSHA try.lua, one reservation per call",
                "redis-benchmark-batched", "the same, " + PER_CALL + " reservations per call");
        for (String row : SERVER_ROWS) {
            StringBuilder out = new StringBuilder("| ").append(names.get(row)).append(" |");
            for (ServerRows r : servers) {
                double m = r.median(row);
                out.append(' ').append(Double.isNaN(m) ? "no WAITAOF" : String.format("%,.0f", m)).append(" |");
            }
            if (servers.size() == 2) {
                double a = servers.get(0).median(row);
                double b = servers.get(1).median(row);
                out.append(' ').append(Double.isNaN(a) || Double.isNaN(b) ? "" : String.format("%.2f", a / b))
                        .append(" |");
            }
            System.out.println(out);
        }
        for (ServerRows r : servers) {
            double none = r.median("none");
            System.out.printf("%s: fsync / none = %.2f, replica / none = %.2f%s%n", r.server, r.median("fsync") / none,
                    r.median("replica") / none, r.waitAof ? String.format(", fsync-and-replica / none = %.2f",
                    r.median("fsync-and-replica") / none) : "");
        }
    }

    private static void run(Endpoints e, Endpoints second, int rounds, int requests) throws Exception {
        List<ServerRows> servers = new ArrayList<>();
        List<Double> java = new ArrayList<>();
        List<Double> breaker = new ArrayList<>();
        List<Double> alone = new ArrayList<>();
        List<Double> noFsync = new ArrayList<>();
        List<Double> replica = new ArrayList<>();
        List<Double> referenceBatched = new ArrayList<>();
        List<Double> reference = new ArrayList<>();
        List<Double> noEvents = new ArrayList<>();
        List<Double> noEventsBatched = new ArrayList<>();
        List<Double> mysql = new ArrayList<>();
        List<Double> mysqlStore = new ArrayList<>();
        List<Double> mysqlStoreLimited = new ArrayList<>();
        List<Double> mysqlStoreAlone = new ArrayList<>();
        List<Double> mysqlStoreBatch = new ArrayList<>();
        System.out.printf("Try throughput, one hot SKU, %d concurrent callers, %d requests per run (%s, %d cores); "
                        + "coalescing max-batch %d, in-flight %d%n", CLIENTS, requests, System.getProperty("os.name"),
                Runtime.getRuntime().availableProcessors(), RedisBench.COALESCING.maxBatch(),
                RedisBench.COALESCING.inFlight());
        try (RedisBench bench = new RedisBench(e); RedisBench other = second == null ? null : new RedisBench(second);
             MysqlBench store = new MysqlBench(e, CLIENTS);
             MysqlBench storeAlone = new MysqlBench(e, CLIENTS, new MysqlStoreCoalescing(1, 1, Duration.ofSeconds(3)))) {
            // JIT warm-up of the MySQL store's path, not measured
            store.tries(CLIENTS, 5_000, null);
            storeAlone.tries(CLIENTS, 5_000, null);
            // JIT warm-up of the Java path, not measured
            bench.fresh(1);
            bench.javaPath(CLIENTS, Math.min(requests, 50_000), true);
            bench.fresh(1);
            bench.javaPath(CLIENTS, Math.min(requests, 50_000), false);
            servers.add(new ServerRows(bench.serverVersion(), bench.hasWaitAof()));
            if (other != null) {
                servers.add(new ServerRows(other.serverVersion(), other.hasWaitAof()));
                other.fresh(1);
                other.javaPath(CLIENTS, Math.min(requests, 50_000), true);
            }
            for (int round = 1; round <= rounds; round++) {
                // the servers' table: in turn, the first server first in odd rounds
                for (int k = 0; k < servers.size(); k++) {
                    int i = round % 2 == 1 ? k : servers.size() - 1 - k;
                    serverRound(i == 0 ? bench : other, i == 0 ? e : second, servers.get(i), requests);
                }
                double r = bench.redisBenchmark(bench.fresh(1), CLIENTS, requests).perSecond();
                double rb = bench.redisBenchmark(bench.fresh(1), CLIENTS, requests, PER_CALL).perSecond();
                double re = bench.redisBenchmark(bench.fresh(1, false), CLIENTS, requests).perSecond();
                double rbe = bench.redisBenchmark(bench.fresh(1, false), CLIENTS, requests, PER_CALL).perSecond();
                noEvents.add(re);
                noEventsBatched.add(rbe);
                bench.fresh(1);
                double j = bench.javaPath(CLIENTS, requests, true).perSecond();
                bench.fresh(1);
                double b = bench.javaPathThroughTheBreaker(CLIENTS, requests).perSecond();
                breaker.add(b);
                bench.fresh(1);
                double a = bench.javaPath(CLIENTS, requests, false).perSecond();
                bench.fresh(1);
                double n = bench.withAppendFsync("everysec", () -> bench.javaPath(CLIENTS, requests, true)).perSecond();
                bench.fresh(1);
                double w;
                try (BenchReplica attached = BenchReplica.start(e)) {
                    w = bench.withAppendFsync("everysec", () -> bench.javaPathWaiting(CLIENTS, requests, false, 1))
                            .perSecond();
                }
                double m = mariadbSlap(e, Math.max(10_000, requests / 10));
                double f = store.tries(CLIENTS, Math.max(10_000, requests / 10), null).perSecond();
                double fb = store.lastMeanBatch();
                double fl = store.tries(CLIENTS, Math.max(10_000, requests / 10), 5).perSecond();
                double fa = storeAlone.tries(CLIENTS, Math.max(10_000, requests / 10), null).perSecond();
                mysqlStore.add(f);
                mysqlStoreLimited.add(fl);
                mysqlStoreAlone.add(fa);
                mysqlStoreBatch.add(fb);
                reference.add(r);
                referenceBatched.add(rb);
                java.add(j);
                alone.add(a);
                noFsync.add(n);
                replica.add(w);
                mysql.add(m);
                System.out.printf("round %d: java path %,.0f/s (through the breaker %,.0f/s; without coalescing %,.0f/s;"
                        + " durability none %,.0f/s; durability replica %,.0f/s) | "
                        + "redis-benchmark EVALSHA %,.0f/s (%d per call: %,.0f/s; without the event append %,.0f/s"
                        + " and %,.0f/s) | MariaDB hot-row UPDATE %,.0f/s | the MySQL store %,.0f/s, %.1f Tries per"
                        + " transaction (with a per-user limit %,.0f/s; without coalescing %,.0f/s)%n",
                        round, j, b, a, n, w, r, PER_CALL, rb, re, rbe, m, f, fb, fl, fa);
            }
        }
        printServers(servers);
        double mj = RedisBench.median(java);
        double mr = RedisBench.median(reference);
        double mm = RedisBench.median(mysql);
        double ma = RedisBench.median(alone);
        double mrb = RedisBench.median(referenceBatched);
        double mn = RedisBench.median(noFsync);
        double mw = RedisBench.median(replica);
        double me = RedisBench.median(noEvents);
        double mbe = RedisBench.median(noEventsBatched);
        double mf = RedisBench.median(mysqlStore);
        double mb = RedisBench.median(breaker);
        double mfl = RedisBench.median(mysqlStoreLimited);
        double mfa = RedisBench.median(mysqlStoreAlone);
        double mfb = RedisBench.median(mysqlStoreBatch);
        System.out.println();
        System.out.println("| path | Tries/s (median of " + rounds + ") |");
        System.out.println("|---|---|");
        System.out.printf("| service Java path (TryCoalescer + TryScript, in-process) | %,.0f |%n", mj);
        System.out.printf("| the same through the Redis breaker (RedisHealth, as the Try action calls it) | %,.0f |%n", mb);
        System.out.printf("| the same without coalescing (TryScript alone, one Try per call) | %,.0f |%n", ma);
        System.out.printf("| the Java path with inventory.durability none (appendfsync everysec instead of always) "
                + "| %,.0f |%n", mn);
        System.out.printf("| the Java path with inventory.durability replica (appendfsync everysec, one replica attached,"
                + " WAIT 1 after every call) | %,.0f |%n", mw);
        System.out.printf("| redis-benchmark EVALSHA try.lua | %,.0f |%n", mr);
        System.out.printf("| redis-benchmark EVALSHA try.lua, %d reservations per call (Redis's ceiling for such calls) "
                + "| %,.0f |%n", PER_CALL, mrb);
        System.out.printf("| redis-benchmark EVALSHA try.lua without its stock-event append | %,.0f |%n", me);
        System.out.printf("| the same, %d reservations per call | %,.0f |%n", PER_CALL, mbe);
        System.out.printf("| MariaDB conditional UPDATE, one row (mariadb-slap) | %,.0f |%n", mm);
        System.out.printf("| the MySQL store's Try (MysqlReservations, in-process: concurrent Tries of the SKU in one"
                + " transaction, %.1f on average, a ledger row each, one allotment update) | %,.0f |%n", mfb, mf);
        System.out.printf("| the same on a SKU with a per-user limit (the buyers' units counted after the row lock)"
                + " | %,.0f |%n", mfl);
        System.out.printf("| the same without coalescing (max-batch 1: ledger row + allotment update, one transaction"
                + " per Try) | %,.0f |%n", mfa);
        System.out.printf("java / redis-benchmark = %.2f   java / MariaDB = %.1f   (without coalescing: %.2f and %.1f)   "
                + "java / redis-benchmark at %d per call = %.2f%n", mj / mr, mj / mm, ma / mr, ma / mm, PER_CALL, mj / mrb);
        System.out.printf("durability fsync / none = %.2f (what on disk before the answer costs the Java path)%n",
                mj / mn);
        System.out.printf("through the breaker / without = %.2f (what the Redis breaker costs the Java path)%n",
                mb / mj);
        System.out.printf("durability replica / none = %.2f, replica / fsync = %.2f (what a replica's acknowledgement"
                + " before the answer costs)%n", mw / mn, mw / mj);
        System.out.printf("stock events in the script: with / without = %.2f (one reservation per call), %.2f (%d per"
                + " call, the coalesced shape)%n", mr / me, mrb / mbe, PER_CALL);
        System.out.printf("the MySQL store / MariaDB hot-row UPDATE = %.2f (with a per-user limit: %.2f; without"
                + " coalescing: %.2f)%n", mf / mm, mfl / mm, mfa / mm);
    }

    /** Units reserved by the run divided by its wall time: the rate of successful conditional updates. */
    private static double mariadbSlap(Endpoints e, int queries) throws Exception {
        String update = "UPDATE sku_stock SET reserved = reserved + 1, version = version + 1 WHERE sku_id = '" + SKU
                + "' AND stocked - sold - reserved >= 1";
        try (Connection c = DriverManager.getConnection(e.jdbcUrl("inventory"), e.dbUser("inventory"), e.dbPassword());
             Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO sku_stock (sku_id, stocked) VALUES ('" + SKU + "', 1000000000000) "
                    + "ON DUPLICATE KEY UPDATE reserved = 0");
            long before = reserved(s);
            long t0 = System.nanoTime();
            RedisBench.run(List.of("mariadb-slap", "--no-defaults", "--host=127.0.0.1",
                    "--port=" + e.jdbcUrl("inventory").replaceAll(".*:(\\d+)/.*", "$1"),
                    "--user=" + e.dbUser("inventory"), "--password=" + e.dbPassword(), "--create-schema=inventory",
                    "--concurrency=" + CLIENTS, "--iterations=1", "--number-of-queries=" + queries,
                    "--query=" + update));
            double seconds = (System.nanoTime() - t0) / 1e9;
            long done = reserved(s) - before;
            s.executeUpdate("UPDATE sku_stock SET reserved = 0 WHERE sku_id = '" + SKU + "'");
            return done / seconds;
        }
    }

    private static long reserved(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT reserved FROM sku_stock WHERE sku_id = '" + SKU + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
