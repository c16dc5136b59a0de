package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.ServiceProblem;
import io.github.flashstock.clients.ServiceUnreachable;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code bin/demo}: the devstack, both services and a flash sale, with its report; then everything stays up until
 * Ctrl-C, or, with {@code --exit}, stops at once (exit code 0 only when the sale balanced).
 * <pre>
 * bin/demo [--exit] [--buyers 2000] [--units 200] [--clients 32] [--instances 1] [--no-nacos] [--warm-up 200]
 *          [--open-after seconds] [--redis-outage [seconds]]
 * </pre>
 * Ahead of the sale it prints the sale console's address and, without {@code --exit}, waits {@code --open-after}
 * seconds (15; 0 with {@code --exit}) so that the console is open when the first buyer arrives.
 * By default configuration and discovery come from the devstack's Nacos: {@code nacos-config/} is published there
 * with {@code import.sh}, the services register, order-demo finds inventory-service through it, and part-way through
 * the sale the hot SKU's segment count is changed in Nacos (1 to 4). {@code --no-nacos} runs on the local files and
 * simple discovery instead. {@code --instances N} runs N instances of each service; buyers spread over the
 * order-demo instances. {@code --redis-outage} freezes Redis (SIGSTOP) for 5 s (or the seconds given) once a third
 * of the buyers have been answered: the sale goes on from the SKUs' allotments, and the report says how many
 * orders each store served. Ports: INVENTORY_PORT (8081; further instances + 2 each), ORDER_DEMO_PORT (8082; further
 * instances + 2 each), and the devstack's DEVSTACK_* settings.
 */
public final class DemoCli {

    private DemoCli() {
    }

    public static void main(String[] args) {
        boolean exit = false;
        int buyers = 2000;
        int units = 200;
        int clients = 32;
        int instances = 1;
        boolean nacos = true;
        int warmUp = 200;
        int redisOutage = 0;
        int openAfter = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--redis-outage" -> redisOutage = i + 1 < args.length && args[i + 1].matches("[1-9][0-9]{0,2}")
                        ? Integer.parseInt(args[++i]) : 5;
                case "--exit" -> exit = true;
                case "--buyers" -> buyers = positive(args, ++i);
                case "--units" -> units = positive(args, ++i);
                case "--clients" -> clients = positive(args, ++i);
                case "--instances" -> instances = positive(args, ++i);
                case "--no-nacos" -> nacos = false;
                case "--warm-up" -> warmUp = count(args, ++i);
                case "--open-after" -> openAfter = count(args, ++i);
                default -> {
                    System.err.println("unknown argument " + args[i] + "; usage: bin/demo [--exit] [--buyers N]"
                            + " [--units N] [--clients N] [--instances N] [--no-nacos] [--warm-up N]"
                            + " [--open-after seconds] [--redis-outage [seconds]]");
                    System.exit(2);
                }
            }
        }
        // without --exit someone is watching: time to open the sale console while the sale is still closed
        int pause = openAfter >= 0 ? openAfter : exit ? 0 : 15;
        System.exit(run(exit, buyers, units, clients, instances, nacos, warmUp, pause, redisOutage));
    }

    static int run(boolean exit, int buyers, int units, int clients, int instances, boolean nacos, int warmUp,
                   int openAfterSeconds, int redisOutageSeconds) {
        DevStack stack = DevStack.fromEnvironment();
        DevStackConfig config = stack.config();
        Set<Component> servers = Component.defaults();
        if (!nacos) {
            servers.remove(Component.NACOS);
        }
        System.out.println("Starting the devstack (" + servers.stream().map(Component::cliName)
                .collect(Collectors.joining(", ")) + ") on 127.0.0.1 ...");
        DevStack.UpReport up = stack.up(servers);
        if (up.startedAny()) {
            // started by this demo: stopped when this JVM ends, however it ends
            stack.claimForBuild(ProcessHandle.current().pid());
        }
        System.out.printf("devstack ready in %.1f s%n", up.elapsed().toMillis() / 1000.0);
        Endpoints endpoints = stack.endpoints();
        String token = env("INVENTORY_ADMIN_TOKEN").orElse("demo-" + UUID.randomUUID());
        int inventoryPort = Integer.parseInt(env("INVENTORY_PORT").orElse("8081"));
        int orderPort = Integer.parseInt(env("ORDER_DEMO_PORT").orElse("8082"));
        List<Integer> inventoryPorts = new ArrayList<>();
        List<Integer> orderPorts = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            // inventory 8081, 8083, 8085, ...; order-demo 8082, 8084, 8086, ...
            inventoryPorts.add(inventoryPort + 2 * i);
            orderPorts.add(orderPort + 2 * i);
        }
        Services.Settings settings = Services.Settings.of(config.root(), inventoryPort, orderPort, token,
                        config.home().resolve("logs"))
                .withInventoryPorts(inventoryPorts)
                .withOrderPorts(orderPorts);
        Optional<NacosAdmin> nacosAdmin = Optional.empty();
        String setup;
        if (nacos) {
            NacosConnection connection = NacosConnection.of(endpoints.nacosAddress());
            if (endpoints.nacosAuth()) {
                connection = connection.withCredentials(endpoints.nacosUsername(), endpoints.nacosPassword());
            }
            NacosAdmin admin = new NacosAdmin(connection);
            NacosAdmin.ImportRun imported = admin.importFolder(config.root());
            System.out.print(imported.output());
            if (imported.exitCode() != 0) {
                throw new IllegalStateException("nacos-config/import.sh failed (exit " + imported.exitCode() + ")");
            }
            settings = settings.withNacos(connection);
            nacosAdmin = Optional.of(admin);
            setup = "configuration and discovery: " + connection.describe();
        } else {
            String configSource = "--flashstock.config.source=file:" + config.root().resolve("nacos-config") + "/";
            settings = settings.withInventoryArgs(configSource).withOrderArgs(configSource);
            setup = "configuration and discovery: local files (nacos-config/), Spring Cloud simple discovery";
        }
        setup += "; " + instances + " instance" + (instances == 1 ? "" : "s") + " of each service";
        System.out.println("Starting " + instances + " inventory-service and " + instances
                + " order-demo instance(s) (logs in " + settings.logDir() + ") ...");
        Services services = Services.start(endpoints, settings, Duration.ofMinutes(3));
        Thread stopper = new Thread(services::close, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);

        System.out.println("sale console       " + services.inventory().url() + "/console  (sign in with the admin"
                + " token " + token + "): the sale live, every instance's health, actions");
        String saleId = LocalDateTime.now().format(DateTimeFormatter.ofPattern("MMdd-HHmmss"));
        SalePlan plan = SalePlan.demo(saleId, units, buyers).withConcurrency(clients);
        if (warmUp > 0) {
            warmUp(services, token, saleId, warmUp, plan.concurrency());
        }
        if (openAfterSeconds > 0) {
            System.out.printf("The sale opens in %d s: open the sale console (%s/console) to watch it live%n",
                    openAfterSeconds, services.inventory().url());
            try {
                Thread.sleep(openAfterSeconds * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.out.printf("%nFlash sale %s: %s (%d units, limit %d per user) and %s (%d units); %d buyers, %d at a time%n",
                saleId, plan.skus().get(0).skuId(), plan.skus().get(0).units(), plan.skus().get(0).perUserLimit(),
                plan.skus().get(1).skuId(), plan.skus().get(1).units(), plan.buyers(), plan.concurrency());
        // buyers spread over the order-demo instances, as a load balancer in front of them would
        FlashSale sale = new FlashSale(services.orders().stream().map(ServiceProcess::url).toList(),
                services.inventory().url(), token, services.buyers(), System.out)
                .describedAs(setup)
                .charted();
        if (nacosAdmin.isPresent()) {
            sale.during(resegmentInNacos(nacosAdmin.get(), config.root(), services.inventoryApi(),
                    plan.skus().get(0).skuId(), Math.max(1, buyers / 4)));
        }
        if (redisOutageSeconds > 0) {
            sale.during(freezeRedis(stack, Duration.ofSeconds(redisOutageSeconds), Math.max(1, buyers / 3)));
        }
        SaleReport report = sale.run(plan);
        report.print(System.out);
        String stores = ordersByStore(endpoints, plan);
        System.out.println(sale.lastStart());
        System.out.println(stores);
        writeReport(config.root().resolve("target/demo"), saleId, report, sale.lastStart() + "\n" + stores,
                sale.lastChart());

        System.out.println();
        System.out.println("order-demo         " + services.order().url() + "  (POST /orders and GET /orders/{id}"
                + " with Authorization: Bearer <buyer token>; /swagger-ui.html)");
        System.out.println("a buyer token      user demo-buyer, " + BuyerTokens.LIFETIME.toHours() + " h: "
                + services.buyers().bearer("demo-buyer"));
        System.out.println("inventory-service  " + services.inventory().url() + "  (GET /skus/{id}/stock and /admin/**"
                + " with the admin token " + token + "; /swagger-ui.html)");
        System.out.println("sale console       " + services.inventory().url() + "/console  (sign in with the admin"
                + " token): the stock per SKU, rates, health, findings; restock, segments and reserves from the page");
        System.out.println("Seata console      " + endpoints.seataConsoleUrl() + "  (login " + DevStackConfig.SEATA_CONSOLE_USER
                + " / " + DevStackConfig.SEATA_CONSOLE_PASSWORD + "): TransactionInfo, application ids "
                + "order-demo and inventory-service, group flashstock-tx-group");
        if (nacos) {
            System.out.println("live config        NACOS_SERVER_ADDR=" + endpoints.nacosAddress()
                    + " nacos-config/import.sh publishes nacos-config/*.yaml; the services apply changes as Nacos"
                    + " pushes them");
        } else {
            System.out.println("live config        edit nacos-config/*.yaml, then POST /actuator/refresh with"
                    + " Authorization: Bearer <admin token>");
        }
        if (exit) {
            Runtime.getRuntime().removeShutdownHook(stopper);
            services.close();
            if (up.startedAny()) {
                stack.down();
            }
            return report.balanced() ? 0 : 1;
        }
        System.out.println("\nEverything stays up; Ctrl-C stops the services"
                + (up.startedAny() ? " and the devstack." : " (the devstack was already up and stays up)."));
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /**
     * Part-way through the sale: the hot SKU's segment count goes from 1 to 4 in Nacos (the service's dataId as in
     * {@code nacos-config/}, with a per-SKU override); the report says when Redis showed the new count.
     */
    static FlashSale.MidSale resegmentInNacos(NacosAdmin nacos, Path root, InventoryApi inventory, String skuId,
                                              int afterAnswers) {
        return new FlashSale.MidSale(afterAnswers, "segments of " + skuId + " 1 -> 4 in Nacos", () -> {
            String dataId;
            try {
                dataId = Files.readString(root.resolve("nacos-config/inventory-service.yaml"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String changed = NacosAdmin.withSegmentCount(dataId, skuId, 4);
            long published = System.nanoTime();
            if (!nacos.publish("inventory-service.yaml", changed)) {
                throw new IllegalStateException("Nacos refused the change");
            }
            long deadline = published + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    InventoryApi.RedisSide redis = inventory.stock(skuId).redis();
                    if (redis != null && redis.segments() == 4) {
                        return "published after " + afterAnswers + " answers; 4 segments in Redis "
                                + (System.nanoTime() - published) / 1_000_000 + " ms later";
                    }
                } catch (ServiceProblem | ServiceUnreachable e) {
                    // the next poll tells
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return "published after " + afterAnswers + " answers; NOT in force in Redis 30 s later";
        });
    }

    /** Part-way through the sale: Redis frozen (SIGSTOP) for a while, then thawed. */
    static FlashSale.MidSale freezeRedis(DevStack stack, Duration outage, int afterAnswers) {
        return new FlashSale.MidSale(afterAnswers, "Redis frozen for " + outage.toSeconds() + " s", () -> {
            List<Long> pids = stack.pause(Component.REDIS);
            try {
                Thread.sleep(outage.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stack.resume(Component.REDIS);
            }
            return "after " + afterAnswers + " answers, Redis (PID " + pids + ") frozen (SIGSTOP) for "
                    + outage.toSeconds() + " s, then thawed";
        });
    }

    /**
     * Which store served the confirmed orders of the sale's SKUs: Redis, or the MySQL store (from the SKUs' reserves,
     * while Redis could not be asked or had sold out), counted from the inventory ledger.
     */
    static String ordersByStore(Endpoints endpoints, SalePlan plan) {
        List<String> skus = plan.skus().stream().map(SalePlan.SkuOnSale::skuId).toList();
        String marks = String.join(",", skus.stream().map(s -> "?").toList());
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(endpoints.jdbcUrl("inventory"),
                endpoints.dbUser("inventory"), endpoints.dbPassword());
             java.sql.PreparedStatement q = c.prepareStatement("SELECT store, COUNT(DISTINCT xid, reservation_key),"
                     + " SUM(quantity) FROM stock_ledger WHERE state = 'CONFIRMED' AND sku_id IN (" + marks + ")"
                     + " GROUP BY store ORDER BY store DESC")) {
            for (int i = 0; i < skus.size(); i++) {
                q.setString(i + 1, skus.get(i));
            }
            StringBuilder line = new StringBuilder("confirmed orders by store:");
            try (java.sql.ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    line.append(' ').append(rs.getString(1).equals("MYSQL") ? "the MySQL store (allotments)" : "Redis")
                            .append(' ').append(rs.getLong(2)).append(" (").append(rs.getLong(3)).append(" units);");
                }
            }
            return line.toString();
        } catch (java.sql.SQLException e) {
            return "confirmed orders by store: not read (" + e.getMessage() + ")";
        }
    }

    /**
     * Orders of a SKU of their own before the sale opens, quietly (docs/benchmarks.md, "The first seconds of a
     * sale": without them, the first answer of a 400-buyer sale came only after 3.6-4.4 s, with them after 0.4-0.6 s).
     */
    static void warmUp(Services services, String token, String saleId, int orders, int clients) {
        System.out.printf("Warming up before the sale opens: %d orders of SKU warmup-%s ...%n", orders, saleId);
        SaleReport warm = new FlashSale(services.orders().stream().map(ServiceProcess::url).toList(),
                services.inventory().url(), token, services.buyers(), new PrintStream(OutputStream.nullOutputStream()))
                .withoutReadBack()
                .run(SalePlan.warmUp(saleId, orders, clients));
        System.out.printf("warm-up: %d orders in %.1f s: %d confirmed, %d refused, %d errors%n", warm.orders(),
                warm.elapsed().toMillis() / 1000.0, warm.confirmed(), warm.refused(), warm.errors());
    }

    /** The report as text and the sale's chart as SVG, beside each other: {@code target/demo/demo-<sale>.txt|svg}. */
    static void writeReport(Path dir, String saleId, SaleReport report, String start, String svg) {
        try {
            Files.createDirectories(dir);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
                report.print(out);
                out.println(start);
            }
            Path txt = dir.resolve("demo-" + saleId + ".txt");
            Path chart = dir.resolve("demo-" + saleId + ".svg");
            Files.write(txt, text.toByteArray());
            System.out.println("report: " + txt);
            if (!svg.isEmpty()) {
                Files.writeString(chart, svg);
                System.out.println("chart:  " + chart + " (orders/s, p99 and stock over the sale; open it in a"
                        + " browser)");
            }
        } catch (IOException e) {
            System.out.println("could not write the report files under " + dir + ": " + e);
        }
    }

    private static Optional<String> env(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    }

    private static int count(String[] args, int i) {
        if (i >= args.length || !args[i].matches("0|[1-9][0-9]{0,6}")) {
            throw new IllegalArgumentException(args[i - 1] + " needs a number (0 or more)");
        }
        return Integer.parseInt(args[i]);
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length || !args[i].matches("[1-9][0-9]{0,6}")) {
            throw new IllegalArgumentException(args[i - 1] + " needs a positive number");
        }
        return Integer.parseInt(args[i]);
    }
}
