package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * Both services, started once per test JVM from the jars this build made, on free ports, against the shared
 * devstack; stopped (by PID) when the JVM ends. order-demo runs with the {@code faults} profile and reads its
 * configuration from a folder of its own ({@link #orderConfig()}), so a test can change it and refresh.
 */
final class EndToEnd {

    private static Services services;
    private static Path configDir;

    private EndToEnd() {
    }

    static synchronized Services services() {
        if (services == null) {
            Endpoints stack = SharedStack.ensure(Component.defaults());
            try {
                configDir = Files.createTempDirectory("flashstock-config");
                Path root = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
                Files.copy(root.resolve("nacos-config/order-demo.yaml"), configDir.resolve("order-demo.yaml"));
                Files.copy(root.resolve("nacos-config/inventory-service.yaml"),
                        configDir.resolve("inventory-service.yaml"));
                String source = "--flashstock.config.source=file:" + configDir + "/";
                Services.Settings settings = Services.Settings.of(root, freePort(), freePort(),
                                "e2e-" + UUID.randomUUID(), root.resolve(".devstack/logs/e2e"))
                        .withInventoryArgs(source)
                        .withOrderArgs(source, "--spring.profiles.active=faults");
                settings = settings.withJarsFromSystemProperties();
                services = Services.start(stack, settings, Duration.ofMinutes(3));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Services started = services;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "e2e-services-stop"));
        }
        return services;
    }

    /**
     * Stops the services if they run; the next {@link #services()} starts them again. For a test that puts its own
     * services on another Redis (the Redis Cluster) under the same coordinator: Seata sends the second phase of a
     * branch whose participant is gone to any participant registered for the same resource, and one of these,
     * on the standalone Redis, would end it there.
     */
    static synchronized void stop() {
        if (services != null) {
            services.close();
            services = null;
        }
    }

    /** The file order-demo imports its settings from (dataId order-demo.yaml). */
    static Path orderConfig() {
        services();
        return configDir.resolve("order-demo.yaml");
    }

    /**
     * The per-SKU settings file inventory-service imports (its {@code inventory-service-skus.yaml}, absent until a test
     * writes it); {@link Http#refreshInventoryConfig()} applies a change.
     */
    static Path inventorySkuSettings() {
        services();
        return configDir.resolve("inventory-service-skus.yaml");
    }

    static Http http() {
        return Http.of(services());
    }

    private static int freePort() {
        return FreePorts.next();
    }
}
