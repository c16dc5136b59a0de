package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code bin/drill <name>|all}: the devstack, two inventory-service and two order-demo instances (local
 * configuration files, simple discovery, order-demo's {@code faults} profile), then each drill in turn, its report,
 * and for {@code all} a table of every drill. Exit code 0 only when every drill came out clean.
 * <pre>
 * bin/drill all|tc-kill|tc-kill-db|inventory-kill-one|inventory-kill-only|order-kill|redis-kill|redis-aof-tail|redis-master-kill|redis-sentinel-failover|mariadb-kill|mariadb-pause|broker-kill
 *           [--buyers 1500] [--clients 48]
 * </pre>
 * Ports: INVENTORY_PORT (8081, the second instance + 2), ORDER_DEMO_PORT (8082, the second instance + 2), and the
 * devstack's DEVSTACK_* settings.
 */
public final class DrillCli {

    private DrillCli() {
    }

    public static void main(String[] args) {
        List<Drill> drills = new ArrayList<>();
        int buyers = 1500;
        int clients = 48;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--buyers" -> buyers = Integer.parseInt(args[++i]);
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "all" -> drills.addAll(Drill.drills());
                default -> {
                    try {
                        drills.add(Drill.parse(args[i]));
                    } catch (IllegalArgumentException e) {
                        System.err.println(e.getMessage());
                        System.exit(2);
                    }
                }
            }
        }
        if (drills.isEmpty()) {
            System.err.println("usage: bin/drill <name>|all [--buyers N] [--clients N]; drills: "
                    + String.join(", ", Drill.drills().stream().map(Drill::cliName).toList()));
            System.exit(2);
        }
        System.exit(run(drills, buyers, clients) ? 0 : 1);
    }

    static boolean run(List<Drill> drills, int buyers, int clients) {
        DevStack stack = DevStack.fromEnvironment();
        DevStackConfig config = stack.config();
        System.out.println("Starting the devstack on 127.0.0.1 ...");
        DevStack.UpReport up = stack.up(Component.defaults());
        if (up.startedAny()) {
            stack.claimForBuild(ProcessHandle.current().pid());
        }
        Services.Settings settings = twoOfEach(config, "drill", "--spring.profiles.active=faults");
        List<DrillReport> reports = new ArrayList<>();
        try (Services services = Services.start(stack.endpoints(), settings, Duration.ofMinutes(3));
             DrillRunner runner = new DrillRunner(stack, services, System.out)) {
            // Ctrl-C stops the services this run started, too
            Thread stopper = new Thread(services::close, "drill-shutdown");
            Runtime.getRuntime().addShutdownHook(stopper);
            for (Drill drill : drills) {
                reports.add(runner.run(drill, buyers, clients));
            }
            Runtime.getRuntime().removeShutdownHook(stopper);
        } finally {
            if (up.startedAny()) {
                stack.down();
            }
        }
        System.out.println();
        System.out.printf("bin/drill %s --buyers %d --clients %d%n", drills.size() == Drill.drills().size() ? "all"
                : String.join(" ", drills.stream().map(Drill::cliName).toList()), buyers, clients);
        DrillReport.printTable(reports, System.out);
        boolean clean = reports.stream().allMatch(DrillReport::clean);
        System.out.println(clean ? "ALL CLEAN" : "NOT CLEAN: "
                + String.join(", ", reports.stream().filter(r -> !r.clean()).map(r -> r.drill().cliName()).toList()));
        return clean;
    }

    /**
     * Two inventory-service and two order-demo instances on the local configuration files and simple discovery, on
     * INVENTORY_PORT (8081) and ORDER_DEMO_PORT (8082), the second instances 2 ports higher; logs under
     * {@code .devstack/logs/<name>}. Prints what it starts.
     */
    static Services.Settings twoOfEach(DevStackConfig config, String name, String... orderArgs) {
        int inventoryPort = Integer.parseInt(env("INVENTORY_PORT").orElse("8081"));
        int orderPort = Integer.parseInt(env("ORDER_DEMO_PORT").orElse("8082"));
        String configSource = "--flashstock.config.source=file:" + config.root().resolve("nacos-config") + "/";
        List<String> orders = new ArrayList<>(List.of(configSource));
        orders.addAll(List.of(orderArgs));
        Services.Settings settings = Services.Settings.of(config.root(), inventoryPort, orderPort,
                        name + "-" + UUID.randomUUID(), config.home().resolve("logs/" + name))
                .withInventoryPorts(List.of(inventoryPort, inventoryPort + 2))
                .withOrderPorts(List.of(orderPort, orderPort + 2))
                .withInventoryArgs(configSource)
                .withOrderArgs(orders.toArray(String[]::new));
        System.out.println("Starting two inventory-service and two order-demo instances (logs in "
                + settings.logDir() + ") ...");
        return settings;
    }

    private static Optional<String> env(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    }
}
