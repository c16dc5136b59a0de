package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.TcpProxy;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Plays a {@link ChaosSchedule} against the HA layout as one {@link Fault} of the sale: {@link #inject} starts the
 * schedule's clock (every fault on a thread of its own, so that a slow restart delays no other fault), {@link #heal}
 * waits for the last fault to be healed and then for every server and instance to answer again. Each fault is healed
 * the way it was struck: a killed server or instance started again, a paused one let go on (SIGCONT), a cut link
 * restored. A killed Redis master is started again only once its replica took over (the node keeps no data and would
 * serve its slots again, empty).
 */
final class ChaosFaults implements Fault {

    /** What happened to the system during the run, relative to the start of the schedule. */
    record Event(Duration from, Duration to, ChaosSchedule.Step step, String outcome) {
    }

    private final ChaosSchedule schedule;
    private final Map<ChaosSchedule.Target, TcpProxy> links;
    private final PrintStream out;
    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    private ExecutorService workers;
    private final List<Future<?>> running = new ArrayList<>();
    private Instant started;
    private Scene scene;

    /** @param links the TCP proxy of each link the schedule may cut */
    ChaosFaults(ChaosSchedule schedule, Map<ChaosSchedule.Target, TcpProxy> links, PrintStream out) {
        this.schedule = schedule;
        this.links = links;
        this.out = out;
    }

    @Override
    public Hit inject(Scene scene) {
        this.scene = scene;
        started = Instant.now();
        workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "chaos");
            t.setDaemon(true);
            return t;
        });
        for (ChaosSchedule.Step step : schedule.steps()) {
            running.add(workers.submit(() -> play(scene, step)));
        }
        return new Hit(started, "chaos seed " + schedule.seed() + ": " + schedule.steps().size() + " faults over "
                + schedule.length().toSeconds() + " s, at most " + schedule.mostAtOnce() + " at once");
    }

    /** The schedule runs alongside the sale: the sale's end is when the faults are over. */
    @Override
    public Duration outage(Scene scene) {
        return Duration.ZERO;
    }

    @Override
    public String heal(Scene scene) {
        return "";
    }

    /** Waits for every fault to be healed, then for every server, instance and link to be back. */
    @Override
    public void afterSale() {
        if (workers == null) {
            return;
        }
        ServiceProcess.sleep(remaining(schedule.length()));
        for (Future<?> f : running) {
            try {
                f.get(5, TimeUnit.MINUTES);
            } catch (Exception e) {
                out.println("  chaos: a fault did not finish: " + e);
            }
        }
        workers.shutdownNow();
        restoreAll(scene.stack(), scene.services());
    }

    /** Every server up, every instance answering, every link restored. */
    private void restoreAll(DevStack stack, Services services) {
        links.values().forEach(TcpProxy::restore);
        supervised(() -> stack.up(EnumSet.of(Component.REDIS_CLUSTER, Component.MARIADB, Component.SEATA,
                Component.ROCKETMQ, Component.NACOS)));
        List<ServiceProcess> all = new ArrayList<>(services.inventories());
        all.addAll(services.orders());
        for (ServiceProcess p : all) {
            supervised(() -> {
                if (!p.alive()) {
                    p.launch();
                }
                p.awaitReady(Duration.ofMinutes(3));
            });
        }
    }

    List<Event> events() {
        return events.stream().sorted(java.util.Comparator.comparing(Event::from)).toList();
    }

    /** Faults by kind: {@code KILL TC} 3, ... */
    Map<String, Integer> byKind() {
        Map<String, Integer> kinds = new TreeMap<>();
        schedule.steps().forEach(s -> kinds.merge(s.action() + " " + s.target(), 1, Integer::sum));
        return kinds;
    }

    private void play(Scene scene, ChaosSchedule.Step step) {
        ServiceProcess.sleep(remaining(step.at()));
        // One fault at a time per process: a restart can outlast the fault's slot (a service starts in 20-60 s on
        // a busy machine), and a second kill or pause must not meet a process half started. It waits, and the
        // report shows when it really began.
        synchronized (busy.computeIfAbsent(step.target() + "#" + step.instance(), k -> new Object())) {
            Duration from = since();
            Duration late = from.minus(step.at());
            String outcome;
            try {
                Runnable undo = strike(scene, step);
                out.printf("  chaos %6.1f s: %s%s%n", from.toMillis() / 1000.0, step.describe(),
                        late.toMillis() > 1000 ? " (" + late.toSeconds() + " s late: the last fault there healed then)"
                                : "");
                ServiceProcess.sleep(step.lasts());
                supervised(undo);
                outcome = "healed " + String.format("%.1f", since().toMillis() / 1000.0) + " s";
            } catch (RuntimeException e) {
                outcome = "FAILED: " + e.getMessage();
                out.printf("  chaos %6.1f s: %s FAILED: %s%n", from.toMillis() / 1000.0, step.describe(), e);
            }
            events.add(new Event(from, since(), step, outcome));
        }
    }

    /** A monitor per target process ({@code INVENTORY#1}), held from a fault's strike to its heal. */
    private final Map<String, Object> busy = new java.util.concurrent.ConcurrentHashMap<>();

    /** Strikes the step's fault; returns what heals it. */
    private Runnable strike(Scene scene, ChaosSchedule.Step step) {
        DevStack stack = scene.stack();
        return switch (step.target()) {
            case REDIS_NODE -> redisNode(stack, step);
            case TC -> tc(stack, step);
            case MARIADB -> server(stack, Component.MARIADB, step.action());
            case BROKER -> server(stack, Component.ROCKETMQ, step.action(), "broker");
            case NACOS -> server(stack, Component.NACOS, step.action());
            case INVENTORY -> instance(scene.services().inventories().get(step.instance()), step.action());
            case ORDER_DEMO -> instance(scene.services().orders().get(step.instance()), step.action());
            case INVENTORY_TO_MARIADB, ORDER_DEMO_TO_MARIADB -> {
                TcpProxy link = links.get(step.target());
                link.cut();
                yield link::restore;
            }
        };
    }

    /**
     * Heals as a process supervisor would: a start that fails (a service does not start while Nacos is away, a TC
     * not while MariaDB is) is tried again every 2 s, for up to {@value #SUPERVISED_S} s.
     */
    private static void supervised(Runnable heal) {
        Instant until = Instant.now().plusSeconds(SUPERVISED_S);
        while (true) {
            try {
                heal.run();
                return;
            } catch (RuntimeException e) {
                if (Instant.now().isAfter(until)) {
                    throw e;
                }
                ServiceProcess.sleep(Duration.ofSeconds(2));
            }
        }
    }

    private static final int SUPERVISED_S = 240;

    private static Runnable server(DevStack stack, Component server, ChaosSchedule.Action action,
                                   String... processes) {
        if (action == ChaosSchedule.Action.PAUSE) {
            stack.pause(server, processes);
            return () -> stack.resume(server, processes);
        }
        stack.kill(server, processes);
        return () -> stack.up(EnumSet.of(server));
    }

    /**
     * A TC is ready once registered in Nacos, and on the db store it needs MariaDB: its restart first waits, outside
     * the devstack's lock, until both answer. Waiting inside {@code up} would hold that lock while another fault's
     * restart of Nacos or MariaDB waits for it.
     */
    private static Runnable tc(DevStack stack, ChaosSchedule.Step step) {
        String process = DevStack.seataProcess(step.instance());
        if (step.action() == ChaosSchedule.Action.PAUSE) {
            stack.pause(Component.SEATA, process);
            return () -> stack.resume(Component.SEATA, process);
        }
        stack.kill(Component.SEATA, process);
        return () -> {
            Instant until = Instant.now().plusSeconds(120);
            while (!stack.isUp(EnumSet.of(Component.NACOS, Component.MARIADB)) && Instant.now().isBefore(until)) {
                ServiceProcess.sleep(Duration.ofMillis(500));
            }
            stack.up(EnumSet.of(Component.SEATA));
        };
    }

    private static Runnable instance(ServiceProcess process, ChaosSchedule.Action action) {
        if (action == ChaosSchedule.Action.PAUSE) {
            long pid = process.pid();
            signal(pid, "STOP");
            return () -> signal(pid, "CONT");
        }
        process.kill();
        return () -> process.start(Duration.ofMinutes(3));
    }

    private static Runnable redisNode(DevStack stack, ChaosSchedule.Step step) {
        String node = stack.endpoints().redisClusterNodes().get(step.instance());
        int port = Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
        String process = "node-" + port;
        if (step.action() == ChaosSchedule.Action.PAUSE) {
            stack.pause(Component.REDIS_CLUSTER, process);
            return () -> stack.resume(Component.REDIS_CLUSTER, process);
        }
        boolean master = "master".equals(stack.redisClusterRole(port));
        stack.kill(Component.REDIS_CLUSTER, process);
        return () -> {
            if (master) {
                // its replica must hold its slots before it comes back, or it would serve them again, empty
                int masters = 0;
                Instant until = Instant.now().plusSeconds(60);
                while (Instant.now().isBefore(until)) {
                    masters = (int) stack.endpoints().redisClusterNodes().stream()
                            .map(n -> Integer.parseInt(n.substring(n.lastIndexOf(':') + 1)))
                            .filter(p -> "master".equals(stack.redisClusterRole(p))).count();
                    if (masters * 2 >= stack.endpoints().redisClusterNodes().size()) {
                        break;
                    }
                    ServiceProcess.sleep(Duration.ofMillis(200));
                }
            }
            stack.up(EnumSet.of(Component.REDIS_CLUSTER));
        };
    }

    private static void signal(long pid, String signal) {
        if (pid < 0) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor(10,
                    TimeUnit.SECONDS);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Duration since() {
        return Duration.between(started, Instant.now());
    }

    private Duration remaining(Duration at) {
        Duration left = at.minus(since());
        return left.isNegative() ? Duration.ZERO : left;
    }
}
