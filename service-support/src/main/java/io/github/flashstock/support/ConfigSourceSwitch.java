package io.github.flashstock.support;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Chooses, before any configuration file is read, where a service's configuration and peers come from.
 * <ul>
 *   <li>A Nacos address is configured ({@code spring.cloud.nacos.server-addr}, or the environment variable
 *   {@code NACOS_SERVER_ADDR}): Nacos config and discovery are switched on, and {@code flashstock.config.source}
 *   becomes {@code nacos:}, so {@code spring.config.import: optional:${flashstock.config.source}<dataId>} reads the
 *   dataId from Nacos, refreshed on every change. {@code NACOS_NAMESPACE}, {@code NACOS_GROUP},
 *   {@code NACOS_USERNAME} and {@code NACOS_PASSWORD}, when set, apply to config and discovery alike (the same
 *   variables {@code nacos-config/import.sh} reads).</li>
 *   <li>No address: both are switched off (no Nacos thread or socket) and the same dataId is read from
 *   {@code classpath:nacos-config/} (the files of the repository's {@code nacos-config/}, packaged into the jar) or
 *   from wherever {@code flashstock.config.source} points, e.g. {@code file:/etc/flashstock/}. Peers come from Spring
 *   Cloud's simple discovery ({@code spring.cloud.discovery.client.simple.instances}).</li>
 * </ul>
 * When Nacos is configured but cannot be reached at start, the service does not start ({@link NacosUnreachable}
 * says why and what to do). Once started, it keeps its last configuration while Nacos is away and picks up changes
 * when Nacos is back.
 * The choices are defaults (the {@code defaultProperties} source): anything set explicitly wins. They sit in the one
 * source that Spring Cloud's refresh copies into the environment it reloads, so a refresh reads the same place.
 */
public class ConfigSourceSwitch implements EnvironmentPostProcessor, Ordered {

    /** The property naming the place configuration is imported from: a location prefix ending in / or :. */
    public static final String SOURCE = "flashstock.config.source";
    static final String LOCAL_SOURCE = "classpath:nacos-config/";
    static final String NACOS_ADDRESS = "spring.cloud.nacos.server-addr";
    static final String NACOS_ADDRESS_ENV = "NACOS_SERVER_ADDR";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> defaults = new LinkedHashMap<>();
        String address = nacosAddress(environment);
        boolean nacos = address != null;
        defaults.put("spring.cloud.nacos.config.enabled", nacos);
        defaults.put("spring.cloud.nacos.discovery.enabled", nacos);
        if (nacos) {
            NacosUnreachable.check(address, Duration.ofSeconds(3));
            defaults.put(NACOS_ADDRESS, address);
            // Spring Cloud Alibaba's start-up check looks for a nacos: entry in the raw spring.config.import values,
            // before placeholders are resolved, so it cannot see the one behind ${flashstock.config.source}; this
            // switch is what guarantees that import, so the check is redundant here.
            defaults.put("spring.cloud.nacos.config.import-check.enabled", false);
            copy(environment, defaults, "NACOS_NAMESPACE", "spring.cloud.nacos.config.namespace",
                    "spring.cloud.nacos.discovery.namespace");
            copy(environment, defaults, "NACOS_GROUP", "spring.cloud.nacos.config.group",
                    "spring.cloud.nacos.discovery.group");
            copy(environment, defaults, "NACOS_USERNAME", "spring.cloud.nacos.username",
                    "spring.cloud.nacos.config.username", "spring.cloud.nacos.discovery.username");
            copy(environment, defaults, "NACOS_PASSWORD", "spring.cloud.nacos.password",
                    "spring.cloud.nacos.config.password", "spring.cloud.nacos.discovery.password");
            // the services bind to loopback by default; register the address they can be reached on
            // (a placeholder: server.address comes from application.yml, which is read after this runs)
            defaults.put("spring.cloud.nacos.discovery.ip", "${server.address:127.0.0.1}");
            defaults.put("spring.cloud.nacos.config.file-extension", "yaml");
        }
        defaults.put(SOURCE, nacos ? "nacos:" : LOCAL_SOURCE);
        // instances named by Nacos come first; the simple list is the fallback when Nacos knows none
        defaults.put("spring.cloud.discovery.client.simple.order", 100);
        DefaultPropertiesPropertySource.addOrMerge(defaults, environment.getPropertySources());
    }

    /** The environment variable's value, if set, as the default of each property (an explicit property wins). */
    private static void copy(ConfigurableEnvironment environment, Map<String, Object> defaults, String variable,
                             String... properties) {
        String value = environment.getProperty(variable);
        if (StringUtils.hasText(value)) {
            for (String property : properties) {
                defaults.put(property, value.trim());
            }
        }
    }

    static String nacosAddress(ConfigurableEnvironment environment) {
        String address = environment.getProperty(NACOS_ADDRESS);
        if (!StringUtils.hasText(address)) {
            address = environment.getProperty(NACOS_ADDRESS_ENV);
        }
        return StringUtils.hasText(address) ? address.trim() : null;
    }

    /** Before the config-data processor, which reads {@code spring.config.import}. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 5;
    }
}
