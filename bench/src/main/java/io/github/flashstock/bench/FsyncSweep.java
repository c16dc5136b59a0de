package io.github.flashstock.bench;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.inventory.reservation.TryCoalescing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How close {@code inventory.durability: fsync} comes to {@code none} on the Try path under several coalescing
 * settings: for each setting, the coalesced Java path of {@code bin/bench-try} (50 callers, {@code -Dbench.clients} for
 * others; one hot SKU, every call a new one-unit reservation) with the devstack's Redis as shipped ({@code appendfsync always}) and with
 * {@code appendfsync everysec}, interleaved over the rounds, medians and their ratio.
 * {@code bin/bench-fsync [rounds] [requests]}; {@code -Dbench.settings=16x2,64x1,64x2+300} picks the settings
 * (max-batch x in-flight, and + a linger in µs). Under {@code fsync} it also reports, from the server's own counters,
 * how many Tries one pass of its event loop carried and what share of the run the server spent writing and syncing
 * its append-only file.
 */
public final class FsyncSweep {

    private static final int CLIENTS = Integer.getInteger("bench.clients", 50);

    private FsyncSweep() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        List<TryCoalescing> settings = new ArrayList<>();
        for (String s : System.getProperty("bench.settings", "16x2,16x4,32x4,64x1,64x2,8x8").split(",")) {
            // max-batch x in-flight, then optionally + a linger in µs
            String[] linger = s.strip().split("\\+");
            String[] parts = linger[0].split("x");
            settings.add(new TryCoalescing(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]),
                    Duration.ofSeconds(3), Duration.ofNanos(linger.length > 1 ? Long.parseLong(linger[1]) * 1000 : 0)));
        }
        DevStack stack = DevStack.fromEnvironment();
        boolean wasUp = stack.isUp(EnumSet.of(Component.REDIS));
        stack.up(EnumSet.of(Component.REDIS));
        try {
            run(new RedisBench(stack.endpoints()), settings, rounds, requests);
        } finally {
            if (!wasUp) {
                stack.down();
            }
        }
        System.exit(0);
    }

    private static String name(TryCoalescing c) {
        return "max-batch " + c.maxBatch() + ", in-flight " + c.inFlight()
                + (c.linger().isZero() ? "" : ", linger " + c.linger().toNanos() / 1000 + " µs");
    }

    private static void run(RedisBench bench, List<TryCoalescing> settings, int rounds, int requests)
            throws Exception {
        System.out.printf("fsync against none on the Try path: %d callers, %d Tries a run, %d round(s), %d cores%n",
                CLIENTS, requests, rounds, Runtime.getRuntime().availableProcessors());
        // JIT warm-up, not measured
        bench.fresh(1);
        bench.javaPath(CLIENTS, Math.min(requests, 50_000), settings.get(0));
        Map<String, List<Double>> fsync = new LinkedHashMap<>();
        Map<String, List<Double>> none = new LinkedHashMap<>();
        Map<String, List<Double>> perPass = new LinkedHashMap<>();
        Map<String, List<Double>> aofShare = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (TryCoalescing c : settings) {
                // the two levels in turn, which first alternating over the rounds
                boolean fsyncFirst = round % 2 == 1;
                for (int i = 0; i < 2; i++) {
                    bench.fresh(1);
                    if (fsyncFirst == (i == 0)) {
                        long[] before = bench.eventLoop();
                        double r = bench.javaPath(CLIENTS, requests, c).perSecond();
                        long[] after = bench.eventLoop();
                        fsync.computeIfAbsent(name(c), k -> new ArrayList<>()).add(r);
                        if (before[0] >= 0 && before[1] >= 0) {
                            // every Try is one write, so a pass that wrote is a pass with Tries; the few passes that
                            // served nothing (timers) make this a slight underestimate
                            perPass.computeIfAbsent(name(c), k -> new ArrayList<>())
                                    .add((double) requests / (after[0] - before[0]));
                            aofShare.computeIfAbsent(name(c), k -> new ArrayList<>())
                                    .add((after[1] - before[1]) / (requests / r * 1e6));
                        }
                    } else {
                        double r = bench.withAppendFsync("everysec", () -> bench.javaPath(CLIENTS, requests, c))
                                .perSecond();
                        none.computeIfAbsent(name(c), k -> new ArrayList<>()).add(r);
                    }
                }
                System.out.printf("  round %d, %s: fsync %,.0f, none %,.0f Tries/s%n", round, name(c),
                        last(fsync.get(name(c))), last(none.get(name(c))));
            }
        }
        System.out.println();
        System.out.println("| coalescing | fsync (Tries/s) | none (Tries/s) | fsync / none | under fsync: Tries per"
                + " pass of the server's event loop | under fsync: share of the time the server spent in its AOF"
                + " write and fsync |");
        System.out.println("|---|---|---|---|---|---|");
        double fastestNone = 0;
        for (TryCoalescing c : settings) {
            double f = RedisBench.median(fsync.get(name(c)));
            double n = RedisBench.median(none.get(name(c)));
            fastestNone = Math.max(fastestNone, n);
            List<Double> passes = perPass.get(name(c));
            List<Double> aof = aofShare.get(name(c));
            System.out.printf("| %s | %,.0f | %,.0f | %.2f | %s | %s |%n", name(c), f, n, f / n,
                    passes == null ? "not reported" : String.format("%.1f", RedisBench.median(passes)),
                    aof == null ? "not reported" : String.format("%.0f %%", 100 * RedisBench.median(aof)));
        }
        bound(bench, rounds, fastestNone);
    }

    /**
     * The most {@code fsync} can reach against the fastest {@code none} of the sweep with the benchmark's callers
     * ({@code -Dbench.clients}, 50), whatever the client does. Each caller waits for its Try, so at most that many
     * Tries are outstanding and one pass of the server's event loop, which under {@code appendfsync always} ends with
     * one fsync before it replies, covers at most that many. A pass of that many Tries costs the server at least
     * their script time ({@code INFO commandstats}) plus the fsync, measured here as what one call of that many
     * reservations from one client costs more under {@code always} than under {@code everysec}
     * ({@code redis-benchmark}, one connection, so one fsync per call).
     */
    private static void bound(RedisBench bench, int rounds, double fastestNone) throws Exception {
        int perCall = CLIENTS;
        int tries = perCall * 2_000;
        List<Double> always = new ArrayList<>();
        List<Double> everysec = new ArrayList<>();
        List<Double> scriptMicros = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            String sha = bench.fresh(1);
            RedisBench.Result a = bench.redisBenchmark(sha, 1, tries, perCall);
            always.add(a.perSecond());
            String sha2 = bench.fresh(1);
            RedisBench.Result e = bench.withAppendFsync("everysec", () -> bench.redisBenchmark(sha2, 1, tries, perCall));
            everysec.add(e.perSecond());
            scriptMicros.add(e.redisMicrosPerCall());
        }
        double callAlways = perCall / RedisBench.median(always) * 1e6;
        double callEverysec = perCall / RedisBench.median(everysec) * 1e6;
        double fsyncMicros = callAlways - callEverysec;
        double scriptPerTry = RedisBench.median(scriptMicros);
        double bestFsync = CLIENTS / ((CLIENTS * scriptPerTry + fsyncMicros) / 1e6);
        System.out.println();
        System.out.printf("The bound with %d callers: one call of %d reservations from one client takes %,.0f µs under"
                + " always and %,.0f µs under everysec (medians of %d), so the fsync of a pass costs about %,.0f µs;"
                + " the script takes %.1f µs a Try inside the server. At most %d Tries per fsync: fsync can reach at"
                + " most %,.0f Tries/s, %.2f x the fastest none of this run (%,.0f Tries/s).%n",
                CLIENTS, perCall, callAlways, callEverysec, rounds, fsyncMicros, scriptPerTry, CLIENTS, bestFsync,
                bestFsync / fastestNone, fastestNone);
    }

    private static double last(List<Double> values) {
        return values.get(values.size() - 1);
    }
}
