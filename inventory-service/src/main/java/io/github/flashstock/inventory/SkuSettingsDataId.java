package io.github.flashstock.inventory;

import com.alibaba.cloud.nacos.client.NacosPropertySource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The dataId the sale console publishes per-SKU settings to, {@code <spring.application.name>-skus.yaml}: a dataId of
 * its own, so that the service's Nacos user needs write permission on it alone. Whoever holds that permission may set
 * the two per-SKU maps ({@link #ALLOWED}) and nothing else: every other key in a source of this dataId is dropped
 * before anything binds it, at start ({@link Guard}, after the configuration is read) and on every refresh (the
 * service's {@code EnvironmentChangeEvent} listener runs first), with an ERROR line naming it.
 */
public final class SkuSettingsDataId {

    /** The only keys the dataId may set: a SKU's segment count and its allotment. */
    public static final List<String> ALLOWED = List.of("inventory.segments.skus", "inventory.mysql-store.allotment.skus");

    /** What the dataId's name ends with, after the application's name. */
    public static final String SUFFIX = "-skus.yaml";

    private static final Logger log = LoggerFactory.getLogger(SkuSettingsDataId.class);

    private SkuSettingsDataId() {
    }

    public static String of(Environment environment) {
        return environment.getRequiredProperty("spring.application.name") + SUFFIX;
    }

    /** Whether a property of the dataId is one of the per-SKU maps' entries. */
    static boolean allowed(String property) {
        return ALLOWED.stream().anyMatch(map -> property.equals(map) || property.startsWith(map + ".")
                || property.startsWith(map + "["));
    }

    /** Whether the property source holds the dataId (from Nacos, or its local copy). */
    static boolean isOf(PropertySource<?> source, String dataId) {
        return source instanceof NacosPropertySource nacos ? dataId.equals(nacos.getDataId())
                : source.getName().contains(dataId);
    }

    /**
     * Replaces every source of the dataId that sets anything but {@link #ALLOWED} with a copy without it.
     *
     * @param dropped told each key that was dropped
     * @return how many keys were dropped
     */
    public static int confine(ConfigurableEnvironment environment, Consumer<String> dropped) {
        String dataId = of(environment);
        int count = 0;
        for (PropertySource<?> source : environment.getPropertySources().stream().toList()) {
            if (!isOf(source, dataId) || !(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            List<String> outside = java.util.Arrays.stream(enumerable.getPropertyNames())
                    .filter(name -> !allowed(name)).toList();
            if (!outside.isEmpty()) {
                environment.getPropertySources().replace(source.getName(), confined(source));
                outside.forEach(dropped);
                count += outside.size();
            }
        }
        return count;
    }

    /** The source with only the keys the dataId may set (the same source when it sets nothing else). */
    public static PropertySource<?> confined(PropertySource<?> source) {
        if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
            return source;
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        boolean dropped = false;
        for (String name : enumerable.getPropertyNames()) {
            if (allowed(name)) {
                kept.put(name, enumerable.getProperty(name));
            } else {
                log.error("{} sets {}, which it may not: dropped (the dataId holds per-SKU settings only: {})",
                        source.getName(), name, ALLOWED);
                dropped = true;
            }
        }
        return dropped ? new MapPropertySource(source.getName(), kept) : source;
    }

    /** Confines the dataId once the configuration is read, before any bean binds it. */
    public static final class Guard implements EnvironmentPostProcessor, Ordered {

        @Override
        public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
            if (environment.containsProperty("spring.application.name")) {
                confine(environment, name -> { });
            }
        }

        @Override
        public int getOrder() {
            return ConfigDataEnvironmentPostProcessor.ORDER + 2;
        }
    }
}
