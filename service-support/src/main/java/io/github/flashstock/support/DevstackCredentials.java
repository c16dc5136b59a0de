package io.github.flashstock.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Refuses to start a service that would log in with one of the devstack's credentials, unless profile
 * {@value #PROFILE} is active. Both services' {@code application.yml} default every server to the devstack, its
 * passwords included, and those passwords are written in this project's public files: a service started anywhere
 * else without its real secrets stops here instead of logging in with them.
 * <p>
 * Each service lists the settings to check under {@code flashstock.credentials}, each with the environment variable
 * that sets it ({@code spring.datasource.password: INVENTORY_DB_PASSWORD}). A setting whose value is one of
 * {@link #DEVSTACK_VALUES} stops the start: {@link DevstackCredentialInForce} names every such setting and its
 * variable. Runs once the configuration is read (the files, Nacos, the environment, the command line), before any
 * bean exists, so nothing has logged in yet.
 */
public class DevstackCredentials implements EnvironmentPostProcessor, Ordered {

    /** The profile the devstack's harness (bin/demo, the drills, the benchmarks, the tests) runs the services with. */
    public static final String PROFILE = "devstack";
    /** The map of settings to check: setting name to the environment variable that sets it. */
    static final String SETTINGS = "flashstock.credentials";
    /**
     * The passwords the devstack sets up (its database users, its Nacos admin, its Seata console) and the Nacos and
     * Seata servers' own well-known defaults.
     */
    static final Set<String> DEVSTACK_VALUES = Set.of("devstack", "devstack-nacos", "nacos", "seata",
            "devstack-order-demo-signing-key-not-a-secret", "devstack-inventory-cluster-key-not-a-secret");

    /**
     * Refuses to start unless the service listens on loopback only ({@code server.address}, and
     * {@code management.server.address} when management has a port of its own): {@code what} is only safe where
     * nothing outside the machine can reach the service.
     */
    public static void requireLoopback(ConfigurableEnvironment environment, String what) {
        List<String> open = new ArrayList<>();
        String server = environment.getProperty("server.address");
        if (!loopback(server)) {
            open.add("server.address is " + (server == null || server.isBlank() ? "unset (every interface)" : server));
        }
        if (environment.getProperty("management.server.port") != null) {
            String management = environment.getProperty("management.server.address");
            if (!loopback(management)) {
                open.add("management.server.address is " + (management == null || management.isBlank()
                        ? "unset (every interface)" : management));
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalStateException("Refusing to start: " + what + " runs only with every port bound to"
                    + " loopback, and " + String.join(", ", open) + ". Bind to 127.0.0.1, or run without it.");
        }
    }

    private static boolean loopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(address.strip()).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.matchesProfiles(PROFILE)) {
            requireLoopback(environment, "profile " + PROFILE + " (the devstack's published keys and passwords are"
                    + " accepted, health details and the API description are open)");
            return;
        }
        Map<String, String> settings = new TreeMap<>(Binder.get(environment)
                .bind(SETTINGS, Bindable.mapOf(String.class, String.class)).orElse(Map.of()));
        List<String> inForce = new ArrayList<>();
        settings.forEach((setting, variable) -> {
            String value = environment.getProperty(setting);
            // a setting may hold several values (a caller's current and next key, comma-separated)
            for (String one : value == null ? new String[0] : value.split(",")) {
                if (DEVSTACK_VALUES.contains(one.strip())) {
                    inForce.add(setting + " (set by " + variable + ") is '" + one.strip() + "'");
                }
            }
        });
        if (!inForce.isEmpty()) {
            throw new DevstackCredentialInForce(inForce);
        }
    }

    /** Right after the configuration files and Nacos are read. */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
