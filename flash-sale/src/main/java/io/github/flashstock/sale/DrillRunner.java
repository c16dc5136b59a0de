package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.OrdersApi;
import io.github.flashstock.clients.ServiceProblem;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.TcpProxy;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@link Drill}s: a sale through order-demo, one fault part-way, recovery, then waits until the system has
 * settled (no order pending, no unit reserved, no global session left for the drill's orders) and reads back what
 * every buyer was told, the orders table, both stores, the coordinator and the reconciler.
 * <p>
 * The services (two inventory-service and two order-demo instances, order-demo with its {@code faults} profile) are
 * started once and reused; a drill that needs fewer stops the rest (SIGTERM) for its sale and the next drill starts
 * them again. What each drill does to the system is its {@link Fault} ({@link Faults#of}); what is read back, a
 * {@link StateReader}'s.
 */
public final class DrillRunner implements AutoCloseable {

    /** How long the system may take to settle after the sale: the order timeout (30 s) and the TC's retries. */
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(150);

    private final DevStack configured;
    /** The stack whose TC settings {@link #close} leaves running. */
    private final DevStack leaveWith;
    private DevStack current;
    private final Services services;
    private final PrintStream out;
    private EventTopic events;
    /** Between the second inventory instance and Redis in the split drill; made on first use. */
    private TcpProxy redisProxy;
    /** In chaos: between the second inventory-service / order-demo instance and MariaDB; made on first use. */
    private final Map<ChaosSchedule.Target, TcpProxy> links = new java.util.EnumMap<>(ChaosSchedule.Target.class);
    private FlashSale lastSale;
    private ChaosRun lastChaos;

    public DrillRunner(DevStack stack, Services services, PrintStream out) {
        this(stack, stack, services, out);
    }

    /**
     * Drills whose TCs run {@code drills}' settings (a shorter dead-session threshold, say), and which leave the TC
     * on {@code leaveWith}'s when they close.
     */
    public DrillRunner(DevStack drills, DevStack leaveWith, Services services, PrintStream out) {
        if (services.inventories().size() < 2 || services.orders().size() < 2) {
            throw new IllegalArgumentException("drills need two inventory-service and two order-demo instances");
        }
        this.configured = drills;
        this.leaveWith = leaveWith;
        this.current = drills;
        this.services = services;
        this.out = out;
    }

    /** Runs one drill with a sale of {@code buyers} buyers, {@code clients} at a time. */
    public DrillReport run(Drill drill, int buyers, int clients) {
        out.println();
        out.println("-- drill " + drill.cliName() + ": " + drill.description());
        prepare(drill);
        String id = drill.cliName() + "-" + UUID.randomUUID().toString().substring(0, 6);
        // stock for about two thirds of the buyers (1.5 units an order), so the fault meets a sale still selling
        int hotUnits = Math.max(10, buyers);
        SalePlan plan = new SalePlan(List.of(
                new SalePlan.SkuOnSale("d-" + id, hotUnits, 2, 1),
                new SalePlan.SkuOnSale("d2-" + id, Math.max(5, buyers / 4), 2, 1)),
                buyers, Math.max(1, buyers * 4 / 5), clients, 0.2, 7);
        if (drill == Drill.REDIS_FULL) {
            // buyers arrive at 20 a second and the fault strikes early, so that the sale goes on after Redis has room
            // again, and its fault waits to see Redis sell again (RedisFull.heal)
            return sell(drill, id, plan, Faults.of(drill), Math.max(1, buyers / 10), sale -> sale.paced(20));
        }
        return sell(drill, id, plan, Faults.of(drill), Math.max(1, buyers / 5), sale -> sale);
    }

    /**
     * A long sale on the HA layout ({@link Drill#CHAOS}) while {@code schedule} plays: buyers arrive at
     * {@code perSecond}, {@code clients} at most under way; the SKUs start with stock for most of a tenth of the sale
     * and are restocked by as much every tenth, so they never simply sell out (a restock is retried under its
     * idempotency key until it goes through). Then every check of a drill. The run's faults, and each answer with
     * its time, stay in {@link #lastChaos()}.
     */
    public DrillReport runChaos(ChaosSchedule schedule, double perSecond, int clients) {
        Drill drill = Drill.CHAOS;
        out.println();
        out.println("-- " + drill.cliName() + ": " + drill.description());
        schedule.print(out);
        prepare(drill);
        String id = "chaos" + schedule.seed() + "-" + UUID.randomUUID().toString().substring(0, 6);
        int buyers = (int) Math.max(10, Math.round(perSecond * schedule.length().toSeconds()));
        // each tenth of the sale asks for about 1.2 units a buyer; the stock and each restock cover most of it
        int hotUnits = Math.max(10, buyers / 12);
        int warmUnits = Math.max(5, buyers / 40);
        SalePlan plan = new SalePlan(List.of(
                new SalePlan.SkuOnSale("d-" + id, hotUnits, 2, 4),
                new SalePlan.SkuOnSale("d2-" + id, warmUnits, 2, 1)),
                buyers, Math.max(1, buyers * 4 / 5), clients, 0.2, schedule.seed());
        ChaosFaults faults = new ChaosFaults(schedule, links(), out);
        DrillReport report = sell(drill, id, plan, faults, 1, sale -> {
            sale.paced(perSecond);
            for (int round = 1; round < 10; round++) {
                int k = round;
                sale.during(new FlashSale.MidSale(buyers * round / 10, "restock " + round,
                        () -> restock(plan, id + "-restock-" + k)));
            }
            return sale;
        });
        lastChaos = new ChaosRun(schedule, faults.events(), faults.byKind(), lastSale.timedAnswers(), report);
        return report;
    }

    /** What the last {@link #runChaos} did: its faults as they happened, and every answer with its time. */
    public ChaosRun lastChaos() {
        return lastChaos;
    }

    /** One {@code bin/chaos} run: the schedule, its faults as they happened, every answer and the checks. */
    public record ChaosRun(ChaosSchedule schedule, List<ChaosFaults.Event> events, Map<String, Integer> faultsByKind,
                           List<FlashSale.Timed> answers, DrillReport report) {
    }

    private String restock(SalePlan plan, String key) {
        List<String> done = new ArrayList<>();
        for (SalePlan.SkuOnSale sku : plan.skus()) {
            Instant until = Instant.now().plus(Duration.ofMinutes(3));
            while (true) {
                try {
                    services.inventoryApi().restock(sku.skuId(), sku.units(), key + "-" + sku.skuId());
                    done.add(sku.units() + " x " + sku.skuId());
                    break;
                } catch (RuntimeException e) {
                    if (Instant.now().isAfter(until)) {
                        throw e;
                    }
                    ServiceProcess.sleep(Duration.ofSeconds(1));
                }
            }
        }
        return String.join(", ", done);
    }

    private DrillReport sell(Drill drill, String id, SalePlan plan, Fault fault, int faultAfter,
                             java.util.function.UnaryOperator<FlashSale> shape) {
        if (events == null) {
            events = new EventTopic(current.endpoints().namesrvAddress());
        }
        int buyers = plan.buyers();
        List<String> orderUrls = services.orders().subList(0, drill.orderInstances()).stream()
                .map(ServiceProcess::url).toList();
        StateReader state = new StateReader(current, services.inventoryApi(), events);
        Fault.Scene scene = new Fault.Scene(current, services, state, this::redisProxy, id,
                plan.skus().get(0).skuId(), drill.outage());
        Set<String> skuIds = new HashSet<>(plan.skus().stream().map(SalePlan.SkuOnSale::skuId).toList());
        skuIds.addAll(fault.prepare(scene));
        boolean awaitEvents = !drill.losesRedisWrites();
        Map<java.nio.file.Path, Long> logsAtStart = Forensics.sizes(logsToSearch());
        AtomicReference<String> faultLine = new AtomicReference<>(DrillReport.NOT_STRUCK);
        AtomicReference<Duration> back = new AtomicReference<>(Duration.ZERO);
        FlashSale sale = shape.apply(new FlashSale(orderUrls, services.inventory().url(), services.adminToken(),
                services.buyers(), out)
                .withoutReadBack()
                .during(new FlashSale.MidSale(faultAfter, "fault", () -> {
                    String line = Faults.strike(fault, scene, back);
                    faultLine.set(line);
                    return line;
                })));
        sale.run(plan);
        lastSale = sale;
        Instant saleEnded = Instant.now();
        fault.afterSale();

        // settle: nothing pending, nothing reserved, nothing left at the coordinator for these orders
        boolean settled = false;
        Instant deadline = saleEnded.plus(SETTLE_LIMIT);
        Instant nextNote = saleEnded.plus(Duration.ofSeconds(10));
        List<String> swept = new ArrayList<>();
        while (Instant.now().isBefore(deadline)) {
            // a session a TC rolled back and could not delete (sql/seata-sweep.sql) is not left work: it goes, said
            List<String> now = state.sweepEndedSessions();
            now.forEach(xid -> out.println("  swept at the TC, rolled back there with no branch left but not deleted: "
                    + xid));
            swept.addAll(now);
            String waitingFor = state.waitingFor(skuIds, awaitEvents);
            if (waitingFor.isEmpty()) {
                settled = true;
                break;
            }
            if (Instant.now().isAfter(nextNote)) {
                out.println("  settling: waiting for " + waitingFor);
                nextNote = Instant.now().plus(Duration.ofSeconds(10));
            }
            ServiceProcess.sleep(Duration.ofSeconds(1));
        }
        Duration settledAfter = Duration.between(saleEnded, Instant.now());

        Map<String, StateReader.OrderRow> orders = state.orders(skuIds);
        Map<String, Integer> answers = new TreeMap<>();
        int failed = 0;
        int replaced = 0;
        int improper = 0;
        List<String> improperExamples = new ArrayList<>();
        int contradictions = 0;
        List<String> examples = new ArrayList<>();
        for (FlashSale.Answer a : sale.answers()) {
            answers.merge(DrillReport.kindOf(a), 1, Integer::sum);
            if (failed(a)) {
                failed++;
            }
            if (a.placements() > 1) {
                replaced++;
            }
            String finalState = a.orderId() == null ? null
                    : orders.containsKey(a.orderId()) ? orders.get(a.orderId()).status() : "ABSENT";
            String wrong = improper(a, finalState);
            if (wrong != null) {
                improper++;
                if (improperExamples.size() < 3) {
                    improperExamples.add(wrong);
                }
            }
            String untrue = untrue(a, finalState);
            if (untrue != null) {
                contradictions++;
                if (examples.size() < 3) {
                    examples.add(untrue);
                }
            }
        }
        int pending = (int) orders.values().stream().filter(o -> o.status().equals("PENDING")).count();
        Set<String> xids = new HashSet<>();
        orders.values().forEach(o -> xids.add(o.xid()));
        int sessionsLeft = state.tcSessions(xids);
        // both stores read while no handover moves units between them (the rebalancer runs on after the sale)
        StillRead.Result<List<DrillReport.SkuOutcome>> stillRead = StillRead.read(() -> state.handovers(skuIds), () -> {
            List<DrillReport.SkuOutcome> read = new ArrayList<>();
            Map<String, List<long[]>> bought = state.boughtByBuyer(skuIds);
            Map<String, List<Long>> inOrders = state.boughtInOrders(skuIds);
            for (String sku : skuIds.stream().sorted().toList()) {
                read.add(outcome(state, sku, orders, bought.getOrDefault(sku, List.of()),
                        inOrders.getOrDefault(sku, List.of())));
            }
            return read;
        }, 20, () -> ServiceProcess.sleep(Duration.ofMillis(500)));
        if (!stillRead.still()) {
            out.println("  the stock was read while units were still moving between Redis and the MySQL store ("
                    + stillRead.attempts() + " attempts to read it between two handovers)");
        }
        List<DrillReport.SkuOutcome> outcomes = stillRead.value();
        List<String> findings = new ArrayList<>(state.findings(skuIds, xids));
        findings.addAll(Forensics.strayKeys(otherRedis(drill), skuIds));
        // a connection that went back to its pool inside a transaction: its next borrower would have inherited it
        Forensics.linesSince(logsAtStart, logsToSearch(), Forensics.OPEN_TRANSACTION_RETURNED, 3)
                .forEach(line -> findings.add("a service returned a connection inside a transaction: " + line));
        List<StateReader.LedgerRow> ledger = state.ledger(skuIds);
        List<String> unmatched = unmatched(orders, ledger);
        DrillReport report = new DrillReport(drill, sale.answers().size(), answers, failed, replaced, improper,
                improperExamples, contradictions, examples, outcomes, pending, sessionsLeft, findings, unmatched,
                events.missing(ledger), faultLine.get(), back.get(), settledAfter, settled);
        report.print(out);
        if (!swept.isEmpty()) {
            out.println("Sessions the TCs rolled back and could not delete, swept by sql/seata-sweep.sql (not counted as"
                    + " left): " + swept.size() + " " + swept);
        }
        Forensics.print(report, logsToSearch(), out);
        Forensics.printStores(report, ledger, redisCopies(drill), redisLogs(drill), out);
        return report;
    }

    /**
     * The Redis servers the drill's services used: every node of the cluster, or the standalone server (none on the
     * Sentinel layout, whose logs alone are read).
     */
    private Forensics.RedisCopies redisCopies(Drill drill) {
        return copies(drill.onCluster() ? current.endpoints().redisClusterNodes().stream()
                .map(n -> Integer.parseInt(n.substring(n.lastIndexOf(':') + 1))).toList()
                : drill.onSentinel() ? List.of() : List.of(current.endpoints().redisPort()));
    }

    /** The Redis servers at {@code ports}, each read on its own copy. */
    private Forensics.RedisCopies copies(List<Integer> ports) {
        DevStack stack = current;
        return new Forensics.RedisCopies() {
            @Override
            public List<Integer> ports() {
                return ports;
            }

            @Override
            public Object read(int port, String... command) {
                return stack.readOnRedisNode(port, command);
            }
        };
    }

    /**
     * The Redis servers the drill's services do not use: the standalone server, on the Cluster and Sentinel layouts
     * (other services of the same devstack may use it); none on the standalone layout.
     */
    private Forensics.RedisCopies otherRedis(Drill drill) {
        return copies(drill.onCluster() || drill.onSentinel() ? List.of(current.endpoints().redisPort()) : List.of());
    }

    /** The Redis servers' logs of the drill's layout: the cluster nodes', the Sentinel layout's, or the server's. */
    private List<java.nio.file.Path> redisLogs(Drill drill) {
        java.nio.file.Path dir = configured.config().home().resolve(drill.onCluster() ? "redis-cluster"
                : drill.onSentinel() ? "redis-sentinel" : "redis");
        try (var files = java.nio.file.Files.walk(dir, 2)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")
                    && !f.getFileName().toString().startsWith("cluster-create")).sorted().toList();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return List.of();
        }
    }

    /** Every service instance's log and every TC's logs: where {@link Forensics} looks. */
    private List<java.nio.file.Path> logsToSearch() {
        List<java.nio.file.Path> logs = new ArrayList<>();
        services.inventories().forEach(p -> logs.add(p.log()));
        services.orders().forEach(p -> logs.add(p.log()));
        java.nio.file.Path seata = configured.config().home().resolve("seata");
        try (var files = java.nio.file.Files.walk(seata, 3)) {
            files.filter(f -> f.getFileName().toString().endsWith(".all.log")).sorted().forEach(logs::add);
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            out.println("(no TC logs under " + seata + ": " + e + ")");
        }
        return logs;
    }

    /** A buyer who did not get the order, although it was not refused for stock or limits. */
    static boolean failed(FlashSale.Answer a) {
        return (a.status() != 201 && a.status() != 202 && a.status() != 409)
                || a.problemType().equals("order-cancelled");
    }

    /**
     * What would make this answer untrue, given the order's final state; null when it is true. An order told 201 must
     * be CONFIRMED; one refused (409) or told it failed must not be; 202 and "outcome unknown" promise nothing yet.
     */
    static String untrue(FlashSale.Answer a, String finalState) {
        if (finalState == null) {
            return null;
        }
        boolean confirmed = finalState.equals("CONFIRMED");
        if (a.status() == 201 && !confirmed) {
            return "order " + a.orderId() + " answered 201 but is " + finalState;
        }
        if (a.status() == 202 || a.problemType().equals("order-outcome-unknown")) {
            return null;
        }
        if (a.status() >= 400 && confirmed) {
            return "order " + a.orderId() + " answered " + a.status() + " " + a.problemType() + " but is CONFIRMED";
        }
        return null;
    }

    /**
     * What is wrong with the form of this answer, whatever happened to the order; null when nothing. A buyer gets a
     * sale (201), an open outcome to poll (202), a refusal (409), or a 503 problem with {@code Retry-After}; a 500, a
     * 200 or any other status is a defect even when it happens to be true, and so is no answer, with one exception:
     * a buyer who found no order-demo instance left to ask (the last one tried refused the connection: all killed
     * or starting at once) and in whose name nothing was sold (no order under the key, or one the coordinator
     * rolled back after the instance holding it died). That buyer counts as a failed order, as a 503 does. A buyer
     * left without an answer while an instance still took connections (the last attempt timed out or was cut off),
     * or whose order was sold without the buyer being told, got an improper answer.
     *
     * @param finalState the order's state after the run ({@code ABSENT} when there is none; null when the answer
     *                   names no order)
     */
    static String improper(FlashSale.Answer a, String finalState) {
        if (a.status() == 201 || a.status() == 202 || a.status() == 409) {
            return null;
        }
        if (a.status() == 503 && !a.problemType().isEmpty() && a.retryAfter()) {
            return null;
        }
        if (a.status() < 0 && a.problemType().equals(FlashSale.NO_INSTANCE_LEFT)
                && ("ABSENT".equals(finalState) || "CANCELLED".equals(finalState))) {
            return null;
        }
        if (a.status() < 0) {
            return "no answer (" + a.problemType() + (finalState == null ? "" : ", order " + a.orderId() + " "
                    + finalState) + ")";
        }
        return a.status() + " " + (a.problemType().isEmpty() ? "without a problem type" : a.problemType())
                + (a.status() == 503 && !a.retryAfter() ? " without Retry-After" : "") + ": "
                + a.body().substring(0, Math.min(300, a.body().length()));
    }

    // ---- shape and faults ---------------------------------------------------------------------------------

    /** The TC in the drill's store, every server up, exactly the drill's instances running and answering. */
    private void prepare(Drill drill) {
        DevStackConfig shape = drill.seataInstances() > 1
                ? configured.config().withSeataCluster(drill.seataInstances())
                : configured.config().withSeataStore(drill.seataStore().orElse(configured.config().seataStore()));
        if (!shape.equals(current.config())) {
            current.stop(Component.SEATA);
            current = shape.equals(configured.config()) ? configured : new DevStack(shape);
        }
        current.up(Component.defaults());
        // several TCs: the services find them in Nacos, where the devstack registers each (the HA path)
        List<String> seata = drill.seataInstances() > 1 ? List.of("--seata.registry.type=nacos",
                "--seata.registry.nacos.server-addr=" + current.endpoints().nacosAddress()) : List.of();
        List<String> redis = List.of();
        if (drill.onCluster()) {
            current.up(EnumSet.of(Component.REDIS_CLUSTER));
            // every Try on a replica before it is answered: the setting a failover needs (docs/design.md);
            // -Ddrill.cluster-durability=none shows the same drill without it
            redis = List.of("--spring.data.redis.cluster.nodes="
                    + String.join(",", current.endpoints().redisClusterNodes()),
                    "--inventory.durability=" + System.getProperty("drill.cluster-durability", "replica"));
        }
        if (drill.onSentinel()) {
            current.up(EnumSet.of(Component.REDIS_SENTINEL));
            // every Try answered only once it is on the primary's disk and the replica's
            redis = List.of("--spring.data.redis.sentinel.master=" + current.endpoints().redisSentinelMaster(),
                    "--spring.data.redis.sentinel.nodes=" + String.join(",", current.endpoints().redisSentinelNodes()),
                    "--inventory.durability=fsync-and-replica");
        }
        for (int i = 0; i < services.inventories().size(); i++) {
            ServiceProcess inventory = services.inventories().get(i);
            List<String> args = new ArrayList<>(redis);
            if (drill == Drill.REDIS_SPLIT && i == 1) {
                // the second instance reaches Redis only through the proxy the drill cuts
                args = new ArrayList<>(List.of("--spring.data.redis.host=127.0.0.1",
                        "--spring.data.redis.port=" + redisProxy().port()));
            }
            if (drill == Drill.CHAOS && i == 1) {
                // the second instance reaches MariaDB only through the link chaos cuts
                args.add(datasourceThrough(links().get(ChaosSchedule.Target.INVENTORY_TO_MARIADB), "inventory"));
            }
            args.addAll(seata);
            if (inventory.useExtraArgs(args) && inventory.pid() >= 0) {
                inventory.stop(Duration.ofSeconds(20));
            }
        }
        for (int i = 0; i < services.orders().size(); i++) {
            ServiceProcess order = services.orders().get(i);
            List<String> args = new ArrayList<>(seata);
            if (drill == Drill.CHAOS && i == 1) {
                args.add(datasourceThrough(links().get(ChaosSchedule.Target.ORDER_DEMO_TO_MARIADB), "orders"));
            }
            if (order.useExtraArgs(args) && order.pid() >= 0) {
                order.stop(Duration.ofSeconds(20));
            }
        }
        List<ServiceProcess> wanted = new ArrayList<>(services.inventories().subList(0, drill.inventoryInstances()));
        wanted.addAll(services.orders().subList(0, drill.orderInstances()));
        List<ServiceProcess> all = new ArrayList<>(services.inventories());
        all.addAll(services.orders());
        for (ServiceProcess p : all) {
            if (!wanted.contains(p)) {
                p.stop(Duration.ofSeconds(20));
            } else if (!p.alive()) {
                p.launch();
            }
        }
        for (ServiceProcess p : wanted) {
            p.awaitReady(Duration.ofMinutes(3));
        }
        // one order through each instance buyers reach, so that every path (and the TC) is known to work
        String warmUp = "d-warm-" + UUID.randomUUID().toString().substring(0, 6);
        services.inventoryApi().createSku(warmUp, new InventoryApi.NewSku(1000, 1000, null));
        for (ServiceProcess order : services.orders().subList(0, drill.orderInstances())) {
            OrdersApi orders = new OrdersApi(order.url()).withPlaceTimeout(Duration.ofSeconds(90));
            Instant until = Instant.now().plus(Duration.ofSeconds(90));
            int status = 0;
            while (status != 201 && Instant.now().isBefore(until)) {
                try {
                    status = orders.place(services.buyers().bearer("warm"), OrdersApi.OrderRequest.of(warmUp, 1))
                            .accepted() ? 202 : 201;
                } catch (ServiceProblem e) {
                    status = e.status();
                }
                if (status != 201) {
                    ServiceProcess.sleep(Duration.ofSeconds(1));
                }
            }
            if (status != 201) {
                throw new IllegalStateException(order.name() + " places no order before the drill (last answer "
                        + status + "); see " + order.log());
            }
        }
    }

    /** The TCP proxies of the links chaos cuts, each to MariaDB; made on first use. */
    private Map<ChaosSchedule.Target, TcpProxy> links() {
        if (links.isEmpty()) {
            int port = current.config().mariadbPort();
            links.put(ChaosSchedule.Target.INVENTORY_TO_MARIADB, TcpProxy.start("127.0.0.1", port, 0));
            links.put(ChaosSchedule.Target.ORDER_DEMO_TO_MARIADB, TcpProxy.start("127.0.0.1", port, 0));
        }
        return links;
    }

    /** The argument that points a service's datasource at {@code database} through {@code proxy}. */
    private String datasourceThrough(TcpProxy proxy, String database) {
        String url = current.endpoints().jdbcUrl(database);
        return "--spring.datasource.url=" + url.replace(":" + current.config().mariadbPort() + "/",
                ":" + proxy.port() + "/");
    }

    private TcpProxy redisProxy() {
        if (redisProxy == null) {
            redisProxy = TcpProxy.start(current.endpoints().redisHost(), current.endpoints().redisPort(), 0);
        }
        return redisProxy;
    }

    /**
     * Order lines and reservations that disagree: a CONFIRMED order whose line has no CONFIRMED ledger row of the
     * same XID and units, and a CONFIRMED ledger row whose order is not CONFIRMED under that XID.
     */
    static List<String> unmatched(Map<String, StateReader.OrderRow> orders, List<StateReader.LedgerRow> ledger) {
        Map<String, StateReader.LedgerRow> byLine = new HashMap<>();
        ledger.forEach(r -> byLine.put(r.xid() + "|" + r.orderId() + "|" + r.skuId(), r));
        List<String> unmatched = new ArrayList<>();
        orders.forEach((orderId, order) -> order.units().forEach((sku, units) -> {
            if (order.status().equals("CONFIRMED")) {
                StateReader.LedgerRow r = byLine.get(order.xid() + "|" + orderId + "|" + sku);
                if (r == null || !r.state().equals("CONFIRMED") || r.quantity() != units) {
                    unmatched.add("order " + orderId + " (xid " + order.xid() + ") CONFIRMED with " + units + " x "
                            + sku + ", reservation " + (r == null ? "absent from the ledger"
                            : r.state() + " " + r.quantity()));
                }
            }
        }));
        for (StateReader.LedgerRow r : ledger) {
            StateReader.OrderRow order = orders.get(r.orderId());
            if (r.state().equals("CONFIRMED") && (order == null || !order.status().equals("CONFIRMED")
                    || !r.xid().equals(order.xid()))) {
                unmatched.add("reservation " + r.orderId() + " (xid " + r.xid() + ") CONFIRMED for " + r.quantity()
                        + " x " + r.skuId() + ", order " + (order == null ? "absent"
                        : order.status() + " under xid " + order.xid()));
            }
        }
        return unmatched;
    }

    /**
     * @param bought   per buyer of the SKU, the units of its CONFIRMED reservations in Redis and in the MySQL store
     * @param inOrders per buyer of the SKU, the units of its CONFIRMED orders: what the buyer got
     */
    private static DrillReport.SkuOutcome outcome(StateReader state, String sku,
                                                  Map<String, StateReader.OrderRow> orders, List<long[]> bought,
                                                  List<Long> inOrders) {
        long unitsInOrders = orders.values().stream().filter(o -> o.status().equals("CONFIRMED"))
                .mapToLong(o -> o.units().getOrDefault(sku, 0)).sum();
        InventoryApi.StockView stock = state.stock(sku);
        long limit = stock.mysql() == null || stock.mysql().perUserLimit() == null ? 0 : stock.mysql().perUserLimit();
        int inAStore = 0;
        int across = 0;
        long most = inOrders.stream().mapToLong(Long::longValue).max().orElse(0);
        if (limit > 0) {
            for (long[] b : bought) {
                inAStore += b[0] > limit || b[1] > limit ? 1 : 0;
            }
            across = (int) inOrders.stream().filter(units -> units > limit).count();
        }
        return new DrillReport.SkuOutcome(sku, StockCounts.of(stock), unitsInOrders, inAStore, across, most, limit);
    }

    /**
     * Puts the TC back as the stack to leave with has it: its store and settings (a TC the drills restarted runs the
     * drills' settings).
     */
    @Override
    public void close() {
        links.values().forEach(TcpProxy::close);
        links.clear();
        if (redisProxy != null) {
            redisProxy.close();
            redisProxy = null;
        }
        if (events != null) {
            events.close();
            events = null;
        }
        if (!current.config().equals(leaveWith.config())) {
            current.stop(Component.SEATA);
            current = leaveWith;
            leaveWith.up(EnumSet.of(Component.SEATA));
        }
    }
}
