package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/demo}: the devstack, both services and a flash sale, with its report; then everything stays up until
 * Ctrl-C, or, with {@code --exit}, stops at once (exit code 0 only when the sale balanced).
 * <pre>
 * bin/demo [--exit] [--buyers 2000] [--units 200] [--clients 32]
 * </pre>
 * Ports: INVENTORY_PORT (8081), ORDER_DEMO_PORT (8082), and the devstack's DEVSTACK_* settings.
 */
public final class DemoCli {

    private DemoCli() {
    }

    public static void main(String[] args) {
        boolean exit = false;
        int buyers = 2000;
        int units = 200;
        int clients = 32;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--exit" -> exit = true;
                case "--buyers" -> buyers = positive(args, ++i);
                case "--units" -> units = positive(args, ++i);
                case "--clients" -> clients = positive(args, ++i);
                default -> {
                    System.err.println("unknown argument " + args[i]
                            + "; usage: bin/demo [--exit] [--buyers N] [--units N] [--clients N]");
                    System.exit(2);
                }
            }
        }
        System.exit(run(exit, buyers, units, clients));
    }

    static int run(boolean exit, int buyers, int units, int clients) {
        DevStack stack = DevStack.fromEnvironment();
        DevStackConfig config = stack.config();
        System.out.println("Starting the devstack (Redis, MariaDB, Seata TC, RocketMQ) on 127.0.0.1 ...");
        DevStack.UpReport up = stack.up(Component.defaults());
        if (up.startedAny()) {
            // started by this demo: stopped when this JVM ends, however it ends
            stack.claimForBuild(ProcessHandle.current().pid());
        }
        System.out.printf("devstack ready in %.1f s%n", up.elapsed().toMillis() / 1000.0);
        Endpoints endpoints = stack.endpoints();
        String token = env("INVENTORY_ADMIN_TOKEN").orElse("demo-" + UUID.randomUUID());
        String configSource = "--flashstock.config.source=file:" + config.root().resolve("nacos-config") + "/";
        Services.Settings settings = Services.Settings.of(config.root(),
                        Integer.parseInt(env("INVENTORY_PORT").orElse("8081")),
                        Integer.parseInt(env("ORDER_DEMO_PORT").orElse("8082")), token, config.home().resolve("logs"))
                .withInventoryArgs(configSource)
                .withOrderArgs(configSource);
        System.out.println("Starting inventory-service and order-demo (logs in " + settings.logDir() + ") ...");
        Services services = Services.start(endpoints, settings, Duration.ofMinutes(3));
        Thread stopper = new Thread(services::close, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);

        String saleId = LocalDateTime.now().format(DateTimeFormatter.ofPattern("MMdd-HHmmss"));
        SalePlan plan = SalePlan.demo(saleId, units, buyers).withConcurrency(clients);
        System.out.printf("%nFlash sale %s: %s (%d units, limit %d per user) and %s (%d units); %d buyers, %d at a time%n",
                saleId, plan.skus().get(0).skuId(), plan.skus().get(0).units(), plan.skus().get(0).perUserLimit(),
                plan.skus().get(1).skuId(), plan.skus().get(1).units(), plan.buyers(), plan.concurrency());
        SaleReport report = new FlashSale(services.order().url(), services.inventory().url(), token, System.out)
                .run(plan);
        report.print(System.out);

        System.out.println();
        System.out.println("order-demo         " + services.order().url() + "  (POST /orders, GET /orders/{id}, "
                + "/swagger-ui.html)");
        System.out.println("inventory-service  " + services.inventory().url() + "  (GET /skus/{id}/stock, "
                + "/swagger-ui.html; admin token: " + token + ")");
        System.out.println("Seata console      " + endpoints.seataConsoleUrl() + "  (login " + DevStackConfig.SEATA_CONSOLE_USER
                + " / " + DevStackConfig.SEATA_CONSOLE_PASSWORD + "): TransactionInfo, application ids "
                + "order-demo and inventory-service, group flashstock-tx-group");
        System.out.println("live config        edit nacos-config/*.yaml, then POST /actuator/refresh on the service");
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

    private static Optional<String> env(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length || !args[i].matches("[1-9][0-9]{0,6}")) {
            throw new IllegalArgumentException(args[i - 1] + " needs a positive number");
        }
        return Integer.parseInt(args[i]);
    }
}
