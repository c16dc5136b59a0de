package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bin/chaos --minutes M --seed S [--runs N] [--buyers-per-second R] [--clients C]}: a long sale on the HA
 * layout (two
 * inventory-service and two order-demo instances, two Seata TCs on the db store found through Nacos, the Redis
 * Cluster, MariaDB, the broker, Nacos) while the seed's {@link ChaosSchedule} kills, pauses and cuts, several at once;
 * then recovery and every check of a drill, every answer against the final state. Prints the schedule first (the
 * same seed replays it), the report, the faults as they happened, and writes a chart of orders/s, availability and
 * the faults to {@code .devstack/chaos/seed-S.svg}. Exit code 0 only when the run came out clean.
 */
public final class ChaosCli {

    private ChaosCli() {
    }

    public static void main(String[] args) {
        double minutes = 10;
        Long seed = null;
        double perSecond = 20;
        int clients = 32;
        int runs = 1;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--minutes" -> minutes = Double.parseDouble(args[++i]);
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--buyers-per-second" -> perSecond = Double.parseDouble(args[++i]);
                    case "--clients" -> clients = Integer.parseInt(args[++i]);
                    case "--runs" -> runs = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (minutes <= 0.5 || perSecond <= 0 || clients <= 0 || runs <= 0) {
                throw new IllegalArgumentException("--minutes above 0.5; --runs, --buyers-per-second and --clients"
                        + " above 0");
            }
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: bin/chaos --minutes M --seed S [--runs 1] [--buyers-per-second 20]"
                    + " [--clients 32]");
            System.exit(2);
        }
        long first = seed != null ? seed : System.nanoTime() % 1_000_000;
        List<ChaosSchedule> schedules = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            schedules.add(ChaosSchedule.draw(first + i, Duration.ofMillis((long) (minutes * 60_000))));
        }
        System.exit(run(schedules, perSecond, clients) ? 0 : 1);
    }

    static boolean run(List<ChaosSchedule> schedules, double perSecond, int clients) {
        DevStack stack = DevStack.fromEnvironment();
        DevStackConfig config = stack.config();
        System.out.println("Starting the devstack on 127.0.0.1 ...");
        DevStack.UpReport up = stack.up(Component.defaults());
        if (up.startedAny()) {
            stack.claimForBuild(ProcessHandle.current().pid());
        }
        Services.Settings settings = DrillCli.twoOfEach(config, "chaos");
        List<DrillRunner.ChaosRun> done = new ArrayList<>();
        try (Services services = Services.start(stack.endpoints(), settings, Duration.ofMinutes(3));
             DrillRunner runner = new DrillRunner(stack, services, System.out)) {
            Thread stopper = new Thread(services::close, "chaos-shutdown");
            Runtime.getRuntime().addShutdownHook(stopper);
            for (ChaosSchedule schedule : schedules) {
                runner.runChaos(schedule, perSecond, clients);
                DrillRunner.ChaosRun chaos = runner.lastChaos();
                done.add(chaos);
                print(chaos, System.out);
                Path chart = config.home().resolve("chaos").resolve("seed-" + schedule.seed() + ".svg");
                try {
                    Files.createDirectories(chart.getParent());
                    Files.writeString(chart, chart(chaos));
                    System.out.println("chart: " + chart);
                } catch (IOException | RuntimeException | Error e) {
                    System.out.println("no chart: " + e);
                }
            }
            Runtime.getRuntime().removeShutdownHook(stopper);
        } finally {
            if (up.startedAny()) {
                stack.down();
            }
        }
        System.out.println();
        System.out.printf("bin/chaos --minutes %s --seed %d --runs %d --buyers-per-second %s --clients %d%n",
                schedules.get(0).length().toSeconds() / 60.0, schedules.get(0).seed(), schedules.size(), perSecond,
                clients);
        System.out.println(TABLE_HEAD);
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        done.forEach(chaos -> System.out.println(tableLine(chaos)));
        boolean clean = done.stream().allMatch(c -> c.report().clean());
        System.out.println(clean ? "ALL CLEAN" : "NOT CLEAN: seeds " + done.stream()
                .filter(c -> !c.report().clean()).map(c -> Long.toString(c.schedule().seed())).toList());
        return clean;
    }

    /** The faults as they happened, and the faults by kind. */
    static void print(DrillRunner.ChaosRun chaos, PrintStream out) {
        out.println();
        out.println("faults as they happened (s from the start of the sale):");
        for (ChaosFaults.Event e : chaos.events()) {
            out.printf("  %7.1f - %7.1f  %s: %s%n", e.from().toMillis() / 1000.0, e.to().toMillis() / 1000.0,
                    e.step().describe(), e.outcome());
        }
        out.println("faults by kind: " + chaos.faultsByKind());
    }

    /** One line of the table in docs/failures.md. */
    static String tableLine(DrillRunner.ChaosRun chaos) {
        DrillReport r = chaos.report();
        Map<String, Integer> byStatus = new TreeMap<>();
        r.answers().forEach((k, v) -> byStatus.merge(k.split(" ")[0], v, Integer::sum));
        return String.format("| %d | %.1f | %d | %d | %d | %d / %d / %d / %d | %d | %d | %d | %d | %d | %d | %d / %d | %s |",
                chaos.schedule().seed(), chaos.schedule().length().toSeconds() / 60.0, chaos.schedule().steps().size(),
                chaos.schedule().mostAtOnce(), r.orders(), byStatus.getOrDefault("201", 0),
                byStatus.getOrDefault("202", 0), byStatus.getOrDefault("409", 0), r.failedOrders(), r.oversold(),
                r.lost(), r.reserved(), r.pendingOrders(), r.tcSessionsLeft(), r.findings().size(), r.contradictions(),
                r.improperAnswers(), r.clean() ? "clean" : "NOT clean");
    }

    static final String TABLE_HEAD = "| seed | minutes | faults | most at once | orders | 201 / 202 / 409 / failed "
            + "| oversold | lost | reserved | pending | TC left | findings | untrue / improper answers | result |";

    /**
     * Orders answered and failed per second, the share of each second's answers that were not failures, and each
     * fault as a bar in its target's lane, on one time axis.
     */
    static String chart(DrillRunner.ChaosRun chaos) {
        int seconds = (int) Math.max(chaos.schedule().length().toSeconds(), chaos.answers().stream()
                .mapToLong(t -> t.doneAtNanos() / 1_000_000_000L).max().orElse(0) + 1);
        int[] answered = new int[seconds + 1];
        int[] failed = new int[seconds + 1];
        for (FlashSale.Timed t : chaos.answers()) {
            int s = (int) Math.min(seconds, t.doneAtNanos() / 1_000_000_000L);
            answered[s]++;
            if (DrillRunner.failed(t.answer())) {
                failed[s]++;
            }
        }
        List<Double> x = new ArrayList<>();
        List<Double> a = new ArrayList<>();
        List<Double> f = new ArrayList<>();
        List<Double> ax = new ArrayList<>();
        List<Double> availability = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            x.add((double) s);
            a.add((double) answered[s]);
            f.add((double) failed[s]);
            if (answered[s] > 0) {
                ax.add((double) s);
                availability.add(100.0 * (answered[s] - failed[s]) / answered[s]);
            }
        }
        List<Charts.Series> lanes = new ArrayList<>();
        for (ChaosSchedule.Target target : ChaosSchedule.Target.values()) {
            List<Double> lx = new ArrayList<>();
            List<Double> ly = new ArrayList<>();
            double lane = target.ordinal() + 1;
            for (ChaosFaults.Event e : chaos.events()) {
                if (e.step().target() == target) {
                    // a bar from the fault's start to its healing, a gap (NaN) before the next one
                    lx.addAll(List.of(e.from().toMillis() / 1000.0, e.to().toMillis() / 1000.0,
                            e.to().toMillis() / 1000.0));
                    ly.addAll(List.of(lane, lane, Double.NaN));
                }
            }
            if (!lx.isEmpty()) {
                lanes.add(Charts.Series.of(lane + " " + target.description(), lx, ly));
            }
        }
        return Charts.svg("Chaos, seed " + chaos.schedule().seed() + ": " + chaos.schedule().steps().size()
                + " faults, " + chaos.report().orders() + " orders", List.of(
                new Charts.Panel("orders answered and failed per second", "seconds into the sale", "orders/s",
                        List.of(Charts.Series.of("answered", x, a), Charts.Series.of("failed", x, f))),
                new Charts.Panel("availability: answers not failed, % of each second's", "seconds into the sale", "%",
                        List.of(Charts.Series.of("availability", ax, availability))),
                new Charts.Panel("faults under way, one lane per target", "seconds into the sale", "lane",
                        lanes)), 1);
    }

}
