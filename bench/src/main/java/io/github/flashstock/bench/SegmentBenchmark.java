package io.github.flashstock.bench;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.Endpoints;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Does splitting a hot SKU into segments raise Try throughput on one Redis? The same load, one hot SKU and 50
 * concurrent callers, with the SKU in 1, 4 and 16 segments, each through the service's Java path and through
 * {@code redis-benchmark} EVALSHA of the same {@code try.lua}; interleaved rounds, medians of throughput and p99.
 * Arguments: {@code [rounds] [requests]}. Runs on the devstack's Redis (database 15), started if needed and then
 * stopped again.
 */
public final class SegmentBenchmark {

    private static final int CLIENTS = 50;
    private static final int[] SEGMENTS = {1, 4, 16};

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        DevStack stack = DevStack.fromEnvironment();
        Set<Component> needed = EnumSet.of(Component.REDIS);
        boolean wasUp = stack.isUp(needed);
        stack.up(needed);
        try {
            run(stack.endpoints(), rounds, requests);
        } finally {
            if (!wasUp) {
                stack.down();
            }
        }
        System.exit(0);
    }

    private static void run(Endpoints e, int rounds, int requests) throws Exception {
        Map<String, List<RedisBench.Result>> results = new LinkedHashMap<>();
        System.out.printf("Try on one hot SKU split into 1/4/16 segments, %d concurrent callers, %d requests per run "
                + "(%d cores)%n", CLIENTS, requests, Runtime.getRuntime().availableProcessors());
        try (RedisBench bench = new RedisBench(e)) {
            bench.fresh(1);
            bench.javaPath(CLIENTS, Math.min(requests, 50_000), true); // JIT warm-up, not measured
            for (int round = 1; round <= rounds; round++) {
                for (int segments : SEGMENTS) {
                    RedisBench.Result reference = bench.redisBenchmark(bench.fresh(segments), CLIENTS, requests);
                    bench.fresh(segments);
                    RedisBench.Result java = bench.javaPath(CLIENTS, requests, true);
                    results.computeIfAbsent("redis-benchmark " + segments, k -> new ArrayList<>()).add(reference);
                    results.computeIfAbsent("java " + segments, k -> new ArrayList<>()).add(java);
                    System.out.printf("round %d, %2d segment(s): java path %,.0f/s p99 %.2f ms | redis-benchmark "
                                    + "%,.0f/s p99 %.2f ms | %.1f us per Try in Redis%n", round, segments,
                            java.perSecond(), java.p99Millis(), reference.perSecond(), reference.p99Millis(),
                            reference.redisMicrosPerCall());
                }
            }
        }
        System.out.println();
        System.out.println("| segments | Java path Tries/s | Java p99 ms | redis-benchmark Tries/s | redis-benchmark p99 ms "
                + "| Java vs 1 segment | redis-benchmark vs 1 segment | µs per Try inside Redis |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        double java1 = medianRate(results.get("java 1"));
        double reference1 = medianRate(results.get("redis-benchmark 1"));
        for (int segments : SEGMENTS) {
            List<RedisBench.Result> java = results.get("java " + segments);
            List<RedisBench.Result> reference = results.get("redis-benchmark " + segments);
            System.out.printf("| %d | %,.0f | %.2f | %,.0f | %.2f | %.2f | %.2f | %.1f |%n", segments,
                    medianRate(java), medianP99(java), medianRate(reference), medianP99(reference),
                    medianRate(java) / java1, medianRate(reference) / reference1,
                    RedisBench.median(reference.stream().map(RedisBench.Result::redisMicrosPerCall).toList()));
        }
        System.out.println("(medians of " + rounds + " rounds)");
    }

    private static double medianRate(List<RedisBench.Result> results) {
        return RedisBench.median(results.stream().map(RedisBench.Result::perSecond).toList());
    }

    private static double medianP99(List<RedisBench.Result> results) {
        return RedisBench.median(results.stream().map(RedisBench.Result::p99Millis).toList());
    }
}
