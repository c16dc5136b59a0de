package io.github.flashstock.sale;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The faults of one {@code bin/chaos} run, drawn from its seed: the same seed and length give the same schedule, so a
 * failing run is replayed exactly. Faults arrive at random (12 s apart on average, a third of them within 2 s of the
 * one before, so that several overlap), each on a target drawn from every part of the HA layout, and last 3 to 10 s.
 * <p>
 * Rules a schedule keeps: one fault at a time on one target; at most {@value #MOST_AT_ONCE} at once; one Redis node
 * at a time, and none within {@value #REDIS_QUIET_S} s of the last one's end (a node comes back as a replica and must
 * finish its sync before its master may die: the devstack's Redis Cluster keeps one copy besides the master, and
 * {@code durability: replica} promises to survive the loss of one, not two); every fault over
 * {@value #QUIET_END_S} s before the end of the sale.
 */
public record ChaosSchedule(long seed, Duration length, List<Step> steps) {

    static final int MOST_AT_ONCE = 3;
    static final int REDIS_QUIET_S = 20;
    static final int QUIET_END_S = 10;
    private static final int FIRST_S = 5;

    public ChaosSchedule {
        steps = List.copyOf(steps);
    }

    /** What a fault does. */
    public enum Action {
        /** kill -9, then started again once the fault's time is up. */
        KILL,
        /** SIGSTOP, then SIGCONT once the fault's time is up. */
        PAUSE,
        /** The TCP proxy between a service instance and a server closes every connection and refuses new ones. */
        CUT
    }

    /** What a fault hits, and how it may be hit. */
    public enum Target {
        REDIS_NODE("a Redis Cluster node", 6, Action.KILL, Action.PAUSE),
        TC("Seata TC", 2, Action.KILL, Action.PAUSE),
        INVENTORY("inventory-service", 2, Action.KILL, Action.PAUSE),
        ORDER_DEMO("order-demo", 2, Action.KILL, Action.PAUSE),
        MARIADB("MariaDB", 1, Action.KILL, Action.PAUSE),
        BROKER("the RocketMQ broker", 1, Action.KILL, Action.PAUSE),
        NACOS("Nacos", 1, Action.KILL, Action.PAUSE),
        /** The second inventory-service instance's connections to MariaDB. */
        INVENTORY_TO_MARIADB("inventory-service-2 to MariaDB", 1, Action.CUT),
        /** The second order-demo instance's connections to MariaDB. */
        ORDER_DEMO_TO_MARIADB("order-demo-2 to MariaDB", 1, Action.CUT);

        private final String description;
        private final int instances;
        private final Action[] actions;

        Target(String description, int instances, Action... actions) {
            this.description = description;
            this.instances = instances;
            this.actions = actions;
        }

        public String description() {
            return description;
        }

        public int instances() {
            return instances;
        }
    }

    /**
     * One fault: from {@code at} (since the start of the sale) for {@code lasts}; {@code instance} picks one of the
     * target's instances (a node's index in the cluster's list, a TC's or a service instance's index).
     */
    public record Step(Duration at, Duration lasts, Target target, int instance, Action action) {

        public Duration ends() {
            return at.plus(lasts);
        }

        boolean overlaps(Duration from, Duration to) {
            return at.compareTo(to) < 0 && from.compareTo(ends()) < 0;
        }

        public String describe() {
            String which = target.instances() > 1 ? " #" + (instance + 1) : "";
            return switch (action) {
                case KILL -> target.description() + which + " kill -9, started again after " + lasts.toSeconds() + " s";
                case PAUSE -> target.description() + which + " paused (SIGSTOP) for " + lasts.toSeconds() + " s";
                case CUT -> target.description() + " cut for " + lasts.toSeconds() + " s";
            };
        }
    }

    /** The schedule of a run of this length with this seed. */
    public static ChaosSchedule draw(long seed, Duration length) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();
        long endMs = length.toMillis() - QUIET_END_S * 1000L;
        long t = FIRST_S * 1000L;
        int misses = 0;
        while (t < endMs && misses < 200) {
            Target target = Target.values()[random.nextInt(Target.values().length)];
            int instance = random.nextInt(target.instances());
            Action action = target.actions[random.nextInt(target.actions.length)];
            long lastsMs = 3000 + random.nextInt(8) * 1000L;
            Step step = new Step(Duration.ofMillis(t), Duration.ofMillis(lastsMs), target, instance, action);
            if (t + lastsMs <= endMs && allowed(step, steps)) {
                steps.add(step);
                misses = 0;
                // the next fault: often on the heels of this one, else after a pause drawn around 12 s
                t += random.nextInt(3) == 0 ? random.nextInt(2000)
                        : 1000 + (long) (-Math.log(1 - random.nextDouble()) * 11_000);
            } else {
                misses++;
                t += 500;
            }
        }
        steps.sort(Comparator.comparing(Step::at));
        return new ChaosSchedule(seed, length, steps);
    }

    static boolean allowed(Step step, List<Step> placed) {
        for (Step other : placed) {
            if (other.target() == step.target() && other.overlaps(step.at(), step.ends())
                    && (other.instance() == step.instance() || step.target() == Target.REDIS_NODE)) {
                return false;
            }
            if (step.target() == Target.REDIS_NODE && other.target() == Target.REDIS_NODE
                    && other.overlaps(step.at().minusSeconds(REDIS_QUIET_S), step.ends().plusSeconds(REDIS_QUIET_S))) {
                return false;
            }
        }
        // the most under way at once within the step is reached where the step or another one starts
        List<Step> with = new ArrayList<>(placed);
        with.add(step);
        return with.stream().filter(o -> o.overlaps(step.at(), step.ends()))
                .allMatch(o -> underWay(with, o.at().compareTo(step.at()) > 0 ? o.at() : step.at()) <= MOST_AT_ONCE);
    }

    private static int underWay(List<Step> steps, Duration at) {
        return (int) steps.stream().filter(p -> p.overlaps(at, at.plusMillis(1))).count();
    }

    /** The most faults under way at one moment. */
    public int mostAtOnce() {
        return steps.stream().mapToInt(s -> underWay(steps, s.at())).max().orElse(0);
    }

    /** The schedule as a table: when, for how long, what. */
    public void print(PrintStream out) {
        out.printf("chaos schedule, seed %d, %d s: %d faults, at most %d at once%n", seed, length.toSeconds(),
                steps.size(), mostAtOnce());
        for (Step s : steps) {
            out.printf("  %7.1f s  %s%n", s.at().toMillis() / 1000.0, s.describe());
        }
    }
}
