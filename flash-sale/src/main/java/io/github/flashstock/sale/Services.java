package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.devstack.Endpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * inventory-service (one or more instances) and order-demo as processes, wired to one devstack: every address comes
 * from its {@link Endpoints}, every port from {@link Settings}. order-demo calls inventory-service by service name:
 * with {@link Settings#nacos()} set, both take their configuration from Nacos and find each other there; without,
 * they read local files and order-demo finds the instances through Spring Cloud's simple discovery. order-demo trusts
 * the {@link BuyerTokens} of this object alone: their public key is written under the devstack's home
 * ({@code buyer-tokens/order-demo-<port>.pub.pem}) and named to every order-demo instance.
 */
public final class Services implements AutoCloseable {

    /** Where the jars are, which ports to use, where configuration comes from, what else to pass. */
    public record Settings(Path inventoryJar, Path orderJar, List<Integer> inventoryPorts, List<Integer> orderPorts,
                           String adminToken, Path logDir, List<String> inventoryArgs, List<String> orderArgs,
                           Optional<NacosConnection> nacos) {

        /** The jars a build leaves under {@code root}, one inventory instance, the given ports, local files. */
        public static Settings of(Path root, int inventoryPort, int orderPort, String adminToken, Path logDir) {
            return new Settings(jar(root, "inventory-service"), jar(root, "order-demo"), List.of(inventoryPort),
                    List.of(orderPort), adminToken, logDir, List.of(), List.of(), Optional.empty());
        }

        public Settings withInventoryJar(Path jar) {
            return new Settings(jar, orderJar, inventoryPorts, orderPorts, adminToken, logDir, inventoryArgs, orderArgs,
                    nacos);
        }

        public Settings withOrderJar(Path jar) {
            return new Settings(inventoryJar, jar, inventoryPorts, orderPorts, adminToken, logDir, inventoryArgs,
                    orderArgs, nacos);
        }

        /** One inventory instance per port. */
        public Settings withInventoryPorts(List<Integer> ports) {
            return new Settings(inventoryJar, orderJar, List.copyOf(ports), orderPorts, adminToken, logDir,
                    inventoryArgs, orderArgs, nacos);
        }

        /** One order-demo instance per port. */
        public Settings withOrderPorts(List<Integer> ports) {
            return new Settings(inventoryJar, orderJar, inventoryPorts, List.copyOf(ports), adminToken, logDir,
                    inventoryArgs, orderArgs, nacos);
        }

        public Settings withInventoryArgs(String... args) {
            return new Settings(inventoryJar, orderJar, inventoryPorts, orderPorts, adminToken, logDir, List.of(args),
                    orderArgs, nacos);
        }

        public Settings withOrderArgs(String... args) {
            return new Settings(inventoryJar, orderJar, inventoryPorts, orderPorts, adminToken, logDir, inventoryArgs,
                    List.of(args), nacos);
        }

        public Settings withNacos(NacosConnection connection) {
            return new Settings(inventoryJar, orderJar, inventoryPorts, orderPorts, adminToken, logDir, inventoryArgs,
                    orderArgs, Optional.of(connection));
        }

        /** The jars named by {@code flashstock.inventory.jar} / {@code flashstock.order.jar}, where set (a build's own). */
        public Settings withJarsFromSystemProperties() {
            Settings settings = this;
            String inventory = System.getProperty("flashstock.inventory.jar");
            String order = System.getProperty("flashstock.order.jar");
            if (inventory != null) {
                settings = settings.withInventoryJar(Path.of(inventory));
            }
            if (order != null) {
                settings = settings.withOrderJar(Path.of(order));
            }
            return settings;
        }

        /** Where a build leaves {@code module}'s runnable jar under {@code root}. */
        public static Path jar(Path root, String module) {
            return root.resolve(module).resolve("target").resolve(module + "-" + Version.PROJECT + "-exec.jar");
        }
    }

    private final List<ServiceProcess> inventories;
    private final List<ServiceProcess> orders;
    private final String adminToken;
    private final BuyerTokens buyers;

    private Services(List<ServiceProcess> inventories, List<ServiceProcess> orders, String adminToken,
                     BuyerTokens buyers) {
        this.inventories = inventories;
        this.orders = orders;
        this.adminToken = adminToken;
        this.buyers = buyers;
    }

    /** Starts every process (in parallel: each takes 10-20 s on two cores) and waits until all are UP. */
    public static Services start(Endpoints stack, Settings settings, Duration timeout) {
        Map<String, String> common = new HashMap<>();
        common.put("SEATA_ADDRESS", stack.seataAddress());
        if (stack.seataRegistry().equals("nacos")) {
            // the devstack's TC registers in the devstack's Nacos: the services find it there
            common.put("SEATA_REGISTRY", "nacos");
            common.put("SEATA_NACOS_ADDR", stack.nacosAddress());
            // the fixed address goes unused then; pointing it nowhere makes sure of that
            common.put("SEATA_ADDRESS", "127.0.0.1:9");
        }
        settings.nacos().ifPresent(n -> common.putAll(n.environment()));
        List<ServiceProcess> inventories = new ArrayList<>();
        for (int i = 0; i < settings.inventoryPorts().size(); i++) {
            int port = settings.inventoryPorts().get(i);
            Map<String, String> inventoryEnv = new HashMap<>(common);
            inventoryEnv.put("INVENTORY_PORT", Integer.toString(port));
            inventoryEnv.put("INVENTORY_DB_URL", stack.jdbcUrl("inventory"));
            inventoryEnv.put("INVENTORY_DB_USER", stack.dbUser("inventory"));
            inventoryEnv.put("INVENTORY_DB_PASSWORD", stack.dbPassword());
            inventoryEnv.put("REDIS_HOST", stack.redisHost());
            inventoryEnv.put("REDIS_PORT", Integer.toString(stack.redisPort()));
            inventoryEnv.put("ROCKETMQ_NAME_SERVER", stack.namesrvAddress());
            inventoryEnv.put("SEATA_CONSOLE_URL", stack.seataConsoleUrl());
            inventoryEnv.put("INVENTORY_ADMIN_TOKEN", settings.adminToken());
            String name = i == 0 ? "inventory-service" : "inventory-service-" + (i + 1);
            inventories.add(new ServiceProcess(name, settings.inventoryJar(), port, settings.inventoryArgs(),
                    inventoryEnv, settings.logDir().resolve(name + ".log")));
        }
        List<String> orderArgs = new ArrayList<>(settings.orderArgs());
        if (settings.nacos().isEmpty()) {
            for (int i = 0; i < inventories.size(); i++) {
                orderArgs.add("--spring.cloud.discovery.client.simple.instances.inventory-service[" + i + "].uri="
                        + inventories.get(i).url());
            }
        }
        BuyerTokens buyers = BuyerTokens.generate();
        // one file per order-demo port: runs side by side (a demo and a test) each keep their own key
        Map<String, String> buyerTokens = buyers.orderDemoEnvironment(stack.config().dataDir("buyer-tokens")
                .resolve("order-demo-" + settings.orderPorts().get(0) + ".pub.pem"));
        List<ServiceProcess> orders = new ArrayList<>();
        for (int i = 0; i < settings.orderPorts().size(); i++) {
            int port = settings.orderPorts().get(i);
            Map<String, String> orderEnv = new HashMap<>(common);
            orderEnv.put("ORDER_DEMO_PORT", Integer.toString(port));
            orderEnv.put("ORDER_DEMO_ADMIN_TOKEN", settings.adminToken());
            orderEnv.put("ORDERS_DB_URL", stack.jdbcUrl("orders"));
            orderEnv.put("ORDERS_DB_USER", stack.dbUser("orders"));
            orderEnv.put("ORDERS_DB_PASSWORD", stack.dbPassword());
            // the order rate limits' buckets, shared by the instances, in the devstack's (standalone) Redis
            orderEnv.put("ORDERS_RATE_LIMITS_REDIS_URI", "redis://" + stack.redisHost() + ":" + stack.redisPort());
            orderEnv.putAll(buyerTokens);
            if (settings.nacos().isPresent()) {
                // Instances come from Nacos alone: the fallback list names a port nothing listens on, so an order
                // that went through proves discovery worked.
                orderEnv.put("INVENTORY_URL", "http://127.0.0.1:9");
            }
            String name = i == 0 ? "order-demo" : "order-demo-" + (i + 1);
            orders.add(new ServiceProcess(name, settings.orderJar(), port, orderArgs, orderEnv,
                    settings.logDir().resolve(name + ".log")));
        }
        Services services = new Services(List.copyOf(inventories), List.copyOf(orders), settings.adminToken(),
                buyers);
        try {
            inventories.forEach(ServiceProcess::launch);
            orders.forEach(ServiceProcess::launch);
            for (ServiceProcess inventory : inventories) {
                inventory.awaitReady(timeout);
            }
            for (ServiceProcess order : orders) {
                order.awaitReady(timeout);
            }
        } catch (RuntimeException e) {
            services.close();
            throw e;
        }
        return services;
    }

    /** The first inventory instance. */
    public ServiceProcess inventory() {
        return inventories.get(0);
    }

    public List<ServiceProcess> inventories() {
        return inventories;
    }

    /** The first order-demo instance. */
    public ServiceProcess order() {
        return orders.get(0);
    }

    public List<ServiceProcess> orders() {
        return orders;
    }

    public String adminToken() {
        return adminToken;
    }

    /** The first inventory instance's API, with the admin token. */
    public InventoryApi inventoryApi() {
        return new InventoryApi(inventory().url(), adminToken);
    }

    /** The tokens every order-demo instance of these services trusts, and no others. */
    public BuyerTokens buyers() {
        return buyers;
    }

    /**
     * Stops every process, all at once: each graceful stop takes seconds of its own (in Nacos mode a service leaves
     * Nacos and keeps serving for 10 s, {@code spring.cloud.nacos.discovery.graceful-shutdown-wait-time}, so that
     * callers' lists drop it first), and one after the other they would add up.
     */
    @Override
    public void close() {
        List<ServiceProcess> all = new ArrayList<>(orders);
        all.addAll(inventories);
        ServiceProcess.stopAll(all, Duration.ofSeconds(20));
    }
}
