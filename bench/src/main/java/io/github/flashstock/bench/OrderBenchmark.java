package io.github.flashstock.bench;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.ServerStatus;
import io.github.flashstock.sale.BuyerTokens;
import io.github.flashstock.sale.Charts;
import io.github.flashstock.sale.FlashSale;
import io.github.flashstock.sale.SalePlan;
import io.github.flashstock.sale.ServiceProcess;
import io.github.flashstock.sale.Services;
import io.github.flashstock.sale.StockSampler;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * Orders per second end to end, beside the floor Seata itself sets on this machine, in the same run
 * ({@code bin/bench-order [rounds] [requests]}): four paths, {@value #CLIENTS} clients each, interleaved over the
 * rounds (each round starts one path later), medians.
 * <ol type="a">
 *   <li><b>floor</b>: the bench-floor app opens a global transaction with two TCC branches that do no work, one local
 *       with Seata's fence on MariaDB, one in a second bench-floor process over HTTP ({@code TX_XID});</li>
 *   <li><b>commit</b>: {@code POST /orders} to order-demo, one unit of a hot SKU with stock to spare, from
 *       {@value #BUYERS} buyers in turn (the SKU has no per-user limit, so which buyer orders changes nothing but the
 *       token): every order commits;</li>
 *   <li><b>refused</b>: the same on a SKU with no stock: the Try is refused and the global transaction rolls back
 *       (409);</li>
 *   <li><b>demo mix</b>: the demo's sale, fresh SKUs every round: a hot SKU of a tenth as many units as requests
 *       (limit 2 per user, 1-2 units per order), one order in five also buys a second SKU, a fifth of the buyers
 *       come back; most orders are refused once the stock is gone, as in a real flash sale.</li>
 * </ol>
 * Every order carries its buyer's token ({@code BuyerTokens}), minted before the load starts and reused; order-demo
 * verifies it on every order, as it would in production. For each: orders/s, latency percentiles and CPU time per
 * 1,000 orders of every process taking part (read from {@code /proc}) and of the whole machine. The services run as
 * {@code bin/demo} runs them (their jars, local configuration files, the devstack's servers). Writes the report and
 * an SVG of each path's orders/s and p99 over time to {@code target/bench-order/}.
 */
public final class OrderBenchmark {

    static final int CLIENTS = Integer.getInteger("bench.clients", 64);
    /** Distinct buyers of the commit and refused paths. */
    static final int BUYERS = 1000;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    enum OrderPath {
        FLOOR("(a) floor: global tx, a fenced local TCC branch + a TCC branch over HTTP, no work", 201),
        COMMIT("(b) POST /orders, every order commits", 201),
        REFUSED("(c) POST /orders on a sold-out SKU (409)", 409),
        MIX("(d) the demo's mix", 0);

        final String label;
        /** The answer every request of this path should get; 0: several are expected (201 and 409). */
        final int expected;

        OrderPath(String label, int expected) {
            this.label = label;
            this.expected = expected;
        }
    }

    /** One path in one round. */
    record Run(OrderPath path, OrderLoad.Result result, Map<String, Double> cpuMillis, MariaDbCounters.Delta db) {

        /** Orders that ended as the path intends (all answers for the mix, where 201 and 409 are both normal). */
        int served() {
            return path.expected == 0 ? result.count(201) + result.count(409) : result.count(path.expected);
        }

        double perSecond() {
            return served() / (result.wallNanos() / 1e9);
        }

        /** MariaDB's COMMIT statements per order served. */
        double commitsPerOrder() {
            return (double) db.commits() / Math.max(1, served());
        }

        /** MariaDB's redo log writes per order served. */
        double logWritesPerOrder() {
            return (double) db.logWrites() / Math.max(1, served());
        }

        /** CPU seconds per 1,000 orders served (= CPU milliseconds per order). */
        double cpuPerThousand(String process) {
            return cpuMillis.getOrDefault(process, 0.0) / Math.max(1, served());
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 2048;
        DevStack stack = DevStack.fromEnvironment();
        Set<Component> needed = EnumSet.of(Component.REDIS, Component.MARIADB, Component.SEATA, Component.ROCKETMQ);
        boolean wasUp = stack.isUp(needed);
        DevStack.UpReport up = stack.up(needed);
        if (up.startedAny()) {
            stack.claimForBuild(ProcessHandle.current().pid());
        }
        int code;
        try {
            code = new OrderBenchmark(stack, rounds, requests).run();
        } finally {
            if (!wasUp) {
                stack.down();
            }
        }
        System.exit(code);
    }

    private final DevStack stack;
    private final Endpoints endpoints;
    private final MariaDbCounters mariadb;
    private final int rounds;
    private final int requests;
    private final String runId = LocalDateTime.now().format(STAMP);
    private final OrderLoad load = new OrderLoad();
    private final PrintStream out = System.out;
    /** The report's first lines: what ran, how. */
    private final StringBuilder header = new StringBuilder();
    /** The SKUs of the last prepared demo mix: hot, side. */
    private List<String> mixSkus = List.of();
    /** Units available over time in each round's demo mix. */
    private final List<Charts.Series> mixStock = new ArrayList<>();

    OrderBenchmark(DevStack stack, int rounds, int requests) {
        this.stack = stack;
        this.endpoints = stack.endpoints();
        this.mariadb = new MariaDbCounters(endpoints.jdbcUrl("inventory"), endpoints.dbUser("inventory"),
                endpoints.dbPassword());
        this.rounds = rounds;
        this.requests = requests;
    }

    int run() throws Exception {
        DevStackConfig config = stack.config();
        Path root = config.root();
        Path logDir = config.home().resolve("logs").resolve("bench-order");
        String token = "bench-" + UUID.randomUUID();
        int inventoryPort = port("INVENTORY_PORT", 8081);
        int orderPort = port("ORDER_DEMO_PORT", 8082);
        int frontPort = port("FLOOR_FRONT_PORT", 8091);
        int backPort = port("FLOOR_BACK_PORT", 8092);
        String configSource = "--flashstock.config.source=file:" + root.resolve("nacos-config") + "/";
        Services.Settings settings = Services.Settings.of(root, inventoryPort, orderPort, token, logDir)
                .withJarsFromSystemProperties()
                .withInventoryArgs(configSource).withOrderArgs(configSource);
        Path floorJar = Path.of(System.getProperty("flashstock.floor.jar",
                Services.Settings.jar(root, "bench-floor").toString()));
        header.append(String.format("Orders per second end to end, %d clients, %d rounds of %d requests per path (%s,"
                        + " %d cores)%n", CLIENTS, rounds, requests, System.getProperty("os.name"),
                Runtime.getRuntime().availableProcessors()));
        out.print(header);
        out.println("Starting inventory-service, order-demo and the two floor apps (logs in " + logDir + ") ...");
        ServiceProcess back = floorApp("floor-back", floorJar, backPort, backPort, logDir);
        ServiceProcess front = floorApp("floor-front", floorJar, frontPort, backPort, logDir);
        // Ctrl-C stops what this benchmark started, as its normal end does
        Thread stopFloor = new Thread(() -> {
            front.stop(Duration.ofSeconds(20));
            back.stop(Duration.ofSeconds(20));
        }, "bench-order-floor-shutdown");
        Runtime.getRuntime().addShutdownHook(stopFloor);
        try {
            back.launch();
            front.launch();
            try (Services services = Services.start(endpoints, settings, Duration.ofMinutes(3))) {
                Thread stopServices = new Thread(services::close, "bench-order-services-shutdown");
                Runtime.getRuntime().addShutdownHook(stopServices);
                back.awaitReady(Duration.ofMinutes(3));
                front.awaitReady(Duration.ofMinutes(3));
                int code = measure(services, front, back);
                Runtime.getRuntime().removeShutdownHook(stopServices);
                return code;
            }
        } finally {
            front.stop(Duration.ofSeconds(20));
            back.stop(Duration.ofSeconds(20));
            Runtime.getRuntime().removeShutdownHook(stopFloor);
        }
    }

    private int measure(Services services, ServiceProcess front, ServiceProcess back) throws Exception {
        InventoryApi inventory = services.inventoryApi();
        String hot = "bo-hot-" + runId;
        String soldOut = "bo-none-" + runId;
        // one segment each, as the demo's SKUs: the figures do not depend on the configured default
        inventory.createSku(hot, new InventoryApi.NewSku(1_000_000_000L, null, 1));
        inventory.createSku(soldOut, new InventoryApi.NewSku(0L, null, 1));

        Map<String, List<Long>> processes = new LinkedHashMap<>();
        Map<Component, List<Long>> servers = new EnumMap<>(Component.class);
        for (ServerStatus s : stack.status()) {
            servers.put(s.component(), s.pids());
        }
        processes.put("TC", servers.getOrDefault(Component.SEATA, List.of()));
        processes.put("order-demo", List.of(services.order().pid()));
        processes.put("inventory-service", List.of(services.inventory().pid()));
        processes.put("floor-front", List.of(front.pid()));
        processes.put("floor-back", List.of(back.pid()));
        processes.put("MariaDB", servers.getOrDefault(Component.MARIADB, List.of()));
        processes.put("Redis", servers.getOrDefault(Component.REDIS, List.of()));
        processes.put("RocketMQ", servers.getOrDefault(Component.ROCKETMQ, List.of()));
        processes.put("bench client", List.of(ProcessHandle.current().pid()));
        String jvms = "JVM options: services " + ProcCpu.jvmOptions(services.order().pid()) + "; floor apps "
                + ProcCpu.jvmOptions(front.pid()) + "; TC " + processes.get("TC").stream().findFirst()
                .map(ProcCpu::jvmOptions).orElse("?") + System.lineSeparator();
        header.append(jvms);
        out.print(jvms);

        Function<OrderPath, List<OrderLoad.Call>> calls = path -> switch (path) {
            case FLOOR -> repeat(URI.create(front.url() + "/floor/transactions"), i -> "{}", i -> Map.of());
            case COMMIT -> repeat(URI.create(services.order().url() + "/orders"), services.buyers(),
                    i -> new FlashSale.Purchase("u-" + runId + "-" + i % BUYERS, Map.of(hot, 1)));
            case REFUSED -> repeat(URI.create(services.order().url() + "/orders"), services.buyers(),
                    i -> new FlashSale.Purchase("u-" + runId + "-" + i % BUYERS, Map.of(soldOut, 1)));
            case MIX -> demoMix(inventory, services.buyers(), URI.create(services.order().url() + "/orders"));
        };

        OrderPath[] order = paths();
        // not measured: the JIT's first pass over every path (-Dbench.warm-up=N requests per path; C2 needs more)
        int warmUp = Integer.getInteger("bench.warm-up", 1024);
        out.println("Warm-up (not measured), " + warmUp + " requests per path ...");
        for (OrderPath path : order) {
            for (int left = warmUp; left > 0; left -= requests) {
                OrderLoad.Result warm = load.run(calls.apply(path).subList(0, Math.min(requests, left)), CLIENTS);
                out.printf("  %-10s %,.0f/s %s%n", path, warm.answeredPerSecond(), warm.statuses());
            }
        }

        String profile = System.getProperty("bench.profile", "");
        OrderPath profiled = profile.isBlank() ? null : OrderPath.valueOf(profile.trim().toUpperCase(Locale.ROOT));
        Map<OrderPath, List<Run>> runs = new EnumMap<>(OrderPath.class);
        for (int round = 1; round <= rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int k = 0; k < order.length; k++) {
                OrderPath path = order[(k + round - 1) % order.length];
                List<OrderLoad.Call> prepared = calls.apply(path);
                ProcCpu.Meter meter = new ProcCpu.Meter(processes);
                Recordings recordings = path == profiled ? recordings(path, processes) : null;
                if (recordings != null) {
                    recordings.start();
                }
                // the stock line's clock starts with the load's (its reads add a little to the mix's inventory and
                // MariaDB figures: eight a second)
                StockSampler stock = path == OrderPath.MIX
                        ? new StockSampler(inventory, mixSkus) : null;
                Run run;
                try {
                    Map<String, Long> dbBefore = mariadb.read();
                    meter.start();
                    OrderLoad.Result result = load.run(prepared, CLIENTS);
                    Map<String, Double> cpu = meter.stop();
                    run = new Run(path, result, cpu, mariadb.since(dbBefore));
                    if (stock != null) {
                        mixStock.addAll(stock.series(Map.of(mixSkus.get(0), "hot, round " + round,
                                mixSkus.get(1), "second SKU, round " + round)));
                    }
                } finally {
                    if (stock != null) {
                        stock.close();
                    }
                    if (recordings != null) {
                        recordings.stop(path.name().toLowerCase(Locale.ROOT) + "-round" + round)
                                .forEach(f -> out.println("  recording " + f));
                    }
                }
                runs.computeIfAbsent(path, p -> new ArrayList<>()).add(run);
                line.append(String.format(" %s %,.0f/s p99 %.0f ms %s;", path, run.perSecond(),
                        run.result().percentileMillis(0.99), run.result().statuses()));
            }
            out.println(line);
            header.append(line).append(System.lineSeparator());
        }
        return report(runs);
    }

    private int report(Map<OrderPath, List<Run>> runs) throws IOException {
        StringBuilder text = new StringBuilder();
        List<String> cpuColumns = List.of("TC", "front", "back", "MariaDB", "Redis", "RocketMQ", "bench client",
                ProcCpu.MACHINE);
        text.append(String.format("%n| path | orders/s | p50 / p95 / p99 ms | CPU s per 1,000 orders: %s |%n",
                String.join(" / ", cpuColumns)));
        text.append("|---|---|---|---|\n");
        Map<OrderPath, Double> rate = new EnumMap<>(OrderPath.class);
        Map<OrderPath, Double> machine = new EnumMap<>(OrderPath.class);
        boolean clean = true;
        for (OrderPath path : runs.keySet()) {
            List<Run> all = runs.get(path);
            double perSecond = median(all, Run::perSecond);
            rate.put(path, perSecond);
            String front = path == OrderPath.FLOOR ? "floor-front" : "order-demo";
            String back = path == OrderPath.FLOOR ? "floor-back" : "inventory-service";
            List<String> cpu = new ArrayList<>();
            for (String column : cpuColumns) {
                String process = column.equals("front") ? front : column.equals("back") ? back : column;
                double value = median(all, r -> r.cpuPerThousand(process));
                cpu.add(String.format("%.2f", value));
                if (column.equals(ProcCpu.MACHINE)) {
                    machine.put(path, value);
                }
            }
            text.append(String.format("| %s | %,.0f | %.0f / %.0f / %.0f | %s |%n", path.label, perSecond,
                    median(all, r -> r.result().percentileMillis(0.50)),
                    median(all, r -> r.result().percentileMillis(0.95)),
                    median(all, r -> r.result().percentileMillis(0.99)), String.join(" / ", cpu)));
            for (Run run : all) {
                int unexpected = run.result().status().length - run.served();
                if (unexpected > 0) {
                    clean = false;
                    text.append(String.format("  %s: %d of %d answers were not %s: %s%n", path, unexpected,
                            run.result().status().length, path.expected == 0 ? "201 or 409" : path.expected,
                            run.result().statuses()));
                }
            }
        }
        text.append(String.format("(front = order-demo, back = inventory-service; for the floor, its two apps.)%n"));
        text.append(String.format("%n| path | MariaDB COMMITs per order | MariaDB redo log writes per order |%n"
                + "|---|---|---|%n"));
        for (OrderPath path : runs.keySet()) {
            text.append(String.format("| %s | %.2f | %.2f |%n", path.label, median(runs.get(path),
                    Run::commitsPerOrder), median(runs.get(path), Run::logWritesPerOrder)));
        }
        text.append(ratios("orders/s, medians of " + rounds, rate));
        text.append(ratios("CPU per order, whole machine", machine));
        out.print(text);

        Path dir = stack.config().root().resolve("target/bench-order");
        Files.createDirectories(dir);
        Path report = dir.resolve("bench-order-" + runId + ".txt");
        Files.writeString(report, header + text.toString());
        Path svg = dir.resolve("bench-order-" + runId + ".svg");
        Files.writeString(svg, OrderCharts.overTime("bin/bench-order " + runId + ", " + CLIENTS + " clients, "
                + requests + " requests per run", runs, mixStock));
        out.println("report: " + report);
        out.println("chart:  " + svg);
        return clean ? 0 : 1;
    }

    /** Flight recordings of the JVMs a path's runs go through ({@code -Dbench.profile=PATH}). */
    private Recordings recordings(OrderPath path, Map<String, List<Long>> processes) {
        List<String> jvms = path == OrderPath.FLOOR ? List.of("floor-front", "floor-back", "TC")
                : List.of("order-demo", "inventory-service", "TC", "RocketMQ");
        Map<String, List<Long>> selected = new LinkedHashMap<>();
        jvms.forEach(j -> selected.put(j, processes.get(j)));
        return new Recordings(stack.config().root().resolve("target/bench-order/recordings-" + runId), selected);
    }

    private List<OrderLoad.Call> repeat(URI uri, Function<Integer, String> body,
                                        Function<Integer, Map<String, String>> headers) {
        List<OrderLoad.Call> calls = new ArrayList<>(requests);
        for (int i = 0; i < requests; i++) {
            calls.add(new OrderLoad.Call(uri, body.apply(i), headers.apply(i)));
        }
        return calls;
    }

    /** Each request one purchase, sent with its buyer's token. */
    private List<OrderLoad.Call> repeat(URI uri, BuyerTokens buyers, Function<Integer, FlashSale.Purchase> purchase) {
        List<FlashSale.Purchase> purchases = new ArrayList<>(requests);
        for (int i = 0; i < requests; i++) {
            purchases.add(purchase.apply(i));
        }
        buyers.mintAhead(purchases.stream().map(FlashSale.Purchase::userId).toList());
        return repeat(uri, i -> purchases.get(i).body(),
                i -> Map.of("Authorization", buyers.bearer(purchases.get(i).userId())));
    }

    /**
     * The demo's sale ({@link SalePlan#demo}: buyers and what they order as {@link FlashSale#purchases} draws them)
     * on fresh SKUs of a tenth as many hot units as requests, each order with an {@code Idempotency-Key}, as the
     * demo's buyers send it.
     */
    private List<OrderLoad.Call> demoMix(InventoryApi inventory, BuyerTokens buyers, URI orders) {
        SalePlan plan = SalePlan.demo("bo-" + runId + "-" + UUID.randomUUID().toString().substring(0, 8),
                Math.max(1, requests / 10), requests);
        for (SalePlan.SkuOnSale sku : plan.skus()) {
            inventory.createSku(sku.skuId(), new InventoryApi.NewSku(sku.units(), sku.perUserLimit(), sku.segments()));
        }
        mixSkus = plan.skus().stream().map(SalePlan.SkuOnSale::skuId).toList();
        List<FlashSale.Purchase> purchases = FlashSale.purchases(plan);
        buyers.mintAhead(purchases.stream().map(FlashSale.Purchase::userId).toList());
        return purchases.stream().map(p -> new OrderLoad.Call(orders, p.body(),
                Map.of("Idempotency-Key", UUID.randomUUID().toString(), "Authorization", buyers.bearer(p.userId()))))
                .toList();
    }

    /**
     * The paths to run: all four, or those {@code -Dbench.paths} names (e.g. {@code FLOOR,COMMIT}, for a quick look
     * at one lever; the floor always runs, as every ratio is against it).
     */
    static OrderPath[] paths() {
        String names = System.getProperty("bench.paths", "");
        if (names.isBlank()) {
            return OrderPath.values();
        }
        Set<OrderPath> chosen = EnumSet.of(OrderPath.FLOOR);
        for (String name : names.split(",")) {
            if (!name.isBlank()) {
                chosen.add(OrderPath.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            }
        }
        return chosen.toArray(OrderPath[]::new);
    }

    /** "(b)/(a) = 0.50   (c)/(a) = 0.60 ...": each path that ran against the floor, then what the figures are. */
    static String ratios(String what, Map<OrderPath, Double> figures) {
        StringBuilder line = new StringBuilder();
        Double floor = figures.get(OrderPath.FLOOR);
        for (Map.Entry<OrderPath, Double> e : figures.entrySet()) {
            if (e.getKey() != OrderPath.FLOOR && floor != null) {
                line.append(String.format("%s/(a) = %.2f   ", e.getKey().label.substring(0, 3), e.getValue() / floor));
            }
        }
        return what + ": " + line.toString().strip() + System.lineSeparator();
    }

    private ServiceProcess floorApp(String name, Path jar, int port, int backPort, Path logDir) {
        Map<String, String> env = new TreeMap<>();
        env.put("FLOOR_NAME", name);
        env.put("FLOOR_PORT", Integer.toString(port));
        env.put("FLOOR_BACK_URL", "http://127.0.0.1:" + backPort);
        env.put("SEATA_ADDRESS", endpoints.seataAddress());
        if (endpoints.seataRegistry().equals("nacos")) {
            env.put("SEATA_REGISTRY", "nacos");
            env.put("SEATA_NACOS_ADDR", endpoints.nacosAddress());
        }
        env.put("ORDERS_DB_URL", endpoints.jdbcUrl("orders"));
        env.put("ORDERS_DB_USER", endpoints.dbUser("orders"));
        env.put("ORDERS_DB_PASSWORD", endpoints.dbPassword());
        return new ServiceProcess(name, jar, port, List.of(), env, logDir.resolve(name + ".log"));
    }

    private static int port(String variable, int fallback) {
        String value = System.getenv(variable);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
    }

    static double median(List<Run> runs, Function<Run, Double> value) {
        return RedisBench.median(runs.stream().map(value).toList());
    }
}
