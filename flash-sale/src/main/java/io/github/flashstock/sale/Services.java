package io.github.flashstock.sale;

import io.github.flashstock.devstack.Endpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * inventory-service and order-demo as processes, wired to one devstack: every address comes from its
 * {@link Endpoints}, every port from {@link Settings}. order-demo finds inventory-service through Spring Cloud's
 * simple discovery (no Nacos server here) and calls it by service name.
 */
public final class Services implements AutoCloseable {

    /** Where the jars are, which ports to use, what else to pass. */
    public record Settings(Path inventoryJar, Path orderJar, int inventoryPort, int orderPort, String adminToken,
                           Path logDir, List<String> inventoryArgs, List<String> orderArgs) {

        /** The jars a build leaves under {@code root}, the given ports, nothing extra. */
        public static Settings of(Path root, int inventoryPort, int orderPort, String adminToken, Path logDir) {
            return new Settings(jar(root, "inventory-service"), jar(root, "order-demo"), inventoryPort, orderPort,
                    adminToken, logDir, List.of(), List.of());
        }

        public Settings withInventoryJar(Path jar) {
            return new Settings(jar, orderJar, inventoryPort, orderPort, adminToken, logDir, inventoryArgs, orderArgs);
        }

        public Settings withOrderJar(Path jar) {
            return new Settings(inventoryJar, jar, inventoryPort, orderPort, adminToken, logDir, inventoryArgs, orderArgs);
        }

        public Settings withInventoryArgs(String... args) {
            return new Settings(inventoryJar, orderJar, inventoryPort, orderPort, adminToken, logDir, List.of(args),
                    orderArgs);
        }

        public Settings withOrderArgs(String... args) {
            return new Settings(inventoryJar, orderJar, inventoryPort, orderPort, adminToken, logDir, inventoryArgs,
                    List.of(args));
        }

        static Path jar(Path root, String module) {
            return root.resolve(module).resolve("target").resolve(module + "-" + Version.PROJECT + "-exec.jar");
        }
    }

    private final ServiceProcess inventory;
    private final ServiceProcess order;
    private final String adminToken;

    private Services(ServiceProcess inventory, ServiceProcess order, String adminToken) {
        this.inventory = inventory;
        this.order = order;
        this.adminToken = adminToken;
    }

    /** Starts both (in parallel: each takes 10-20 s on two cores) and waits until both are UP. */
    public static Services start(Endpoints stack, Settings settings, Duration timeout) {
        Map<String, String> common = new HashMap<>();
        common.put("SEATA_ADDRESS", stack.seataAddress());
        Map<String, String> inventoryEnv = new HashMap<>(common);
        inventoryEnv.put("INVENTORY_PORT", Integer.toString(settings.inventoryPort()));
        inventoryEnv.put("INVENTORY_DB_URL", stack.jdbcUrl("inventory"));
        inventoryEnv.put("INVENTORY_DB_USER", stack.dbUser("inventory"));
        inventoryEnv.put("INVENTORY_DB_PASSWORD", stack.dbPassword());
        inventoryEnv.put("REDIS_HOST", stack.redisHost());
        inventoryEnv.put("REDIS_PORT", Integer.toString(stack.redisPort()));
        inventoryEnv.put("ROCKETMQ_NAME_SERVER", stack.namesrvAddress());
        inventoryEnv.put("SEATA_CONSOLE_URL", stack.seataConsoleUrl());
        inventoryEnv.put("INVENTORY_ADMIN_TOKEN", settings.adminToken());
        Map<String, String> orderEnv = new HashMap<>(common);
        orderEnv.put("ORDER_DEMO_PORT", Integer.toString(settings.orderPort()));
        orderEnv.put("ORDERS_DB_URL", stack.jdbcUrl("orders"));
        orderEnv.put("ORDERS_DB_USER", stack.dbUser("orders"));
        orderEnv.put("ORDERS_DB_PASSWORD", stack.dbPassword());
        orderEnv.put("INVENTORY_URL", "http://127.0.0.1:" + settings.inventoryPort());
        ServiceProcess inventory = new ServiceProcess("inventory-service", settings.inventoryJar(),
                settings.inventoryPort(), settings.inventoryArgs(), inventoryEnv,
                settings.logDir().resolve("inventory-service.log"));
        ServiceProcess order = new ServiceProcess("order-demo", settings.orderJar(), settings.orderPort(),
                new ArrayList<>(settings.orderArgs()), orderEnv, settings.logDir().resolve("order-demo.log"));
        Services services = new Services(inventory, order, settings.adminToken());
        try {
            inventory.launch();
            order.launch();
            inventory.awaitReady(timeout);
            order.awaitReady(timeout);
        } catch (RuntimeException e) {
            services.close();
            throw e;
        }
        return services;
    }

    public ServiceProcess inventory() {
        return inventory;
    }

    public ServiceProcess order() {
        return order;
    }

    public String adminToken() {
        return adminToken;
    }

    /** Stops both, order-demo first. */
    @Override
    public void close() {
        order.stop(Duration.ofSeconds(20));
        inventory.stop(Duration.ofSeconds(20));
    }
}
