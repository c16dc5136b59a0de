package io.github.flashstock.support;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.DefaultPropertiesPropertySource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Chooses, before any configuration file is read, where a service's configuration and peers come from.
 * <ul>
 *   <li>A Nacos address is configured ({@code spring.cloud.nacos.server-addr}, or the environment variable
 *   {@code NACOS_SERVER_ADDR}): Nacos config and discovery are switched on, and {@code flashstock.config.source}
 *   becomes {@code nacos:}, so {@code spring.config.import: optional:${flashstock.config.source}<dataId>} reads the
 *   dataId from Nacos, refreshed on every change.</li>
 *   <li>No address: both are switched off (no Nacos thread or socket) and the same dataId is read from
 *   {@code classpath:nacos-config/} (the files of the repository's {@code nacos-config/}, packaged into the jar) or
 *   from wherever {@code flashstock.config.source} points, e.g. {@code file:/etc/flashstock/}. Peers come from Spring
 *   Cloud's simple discovery ({@code spring.cloud.discovery.client.simple.instances}).</li>
 * </ul>
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
            defaults.put(NACOS_ADDRESS, address);
            // the services bind to loopback by default; register the address they can be reached on
            defaults.put("spring.cloud.nacos.discovery.ip", environment.getProperty("server.address", "127.0.0.1"));
            defaults.put("spring.cloud.nacos.config.file-extension", "yaml");
        }
        defaults.put(SOURCE, nacos ? "nacos:" : LOCAL_SOURCE);
        // instances named by Nacos come first; the simple list is the fallback when Nacos knows none
        defaults.put("spring.cloud.discovery.client.simple.order", 100);
        DefaultPropertiesPropertySource.addOrMerge(defaults, environment.getPropertySources());
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
