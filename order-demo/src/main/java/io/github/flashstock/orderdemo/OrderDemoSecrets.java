package io.github.flashstock.orderdemo;

import io.github.flashstock.support.DevstackCredentials;
import io.github.flashstock.support.SecretSources;
import io.github.flashstock.support.SecretSources.Secret;
import java.util.List;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * order-demo's secrets, each from the environment only, never from a dataId ({@link SecretSources}), and fault
 * injection ({@code orders.faults.enabled}, profile {@code faults}) only where nothing outside the machine can reach the
 * service: checked once the configuration is read, before any bean exists.
 */
public final class OrderDemoSecrets implements EnvironmentPostProcessor, Ordered {

    static final List<Secret> SECRETS = List.of(
            Secret.of("orders.admin-token", "ORDER_DEMO_ADMIN_TOKEN"),
            Secret.of("orders.inventory.signing-key", "ORDER_DEMO_INVENTORY_SIGNING_KEY"),
            Secret.of("spring.datasource.password", "ORDERS_DB_PASSWORD"),
            Secret.of("spring.data.redis.password", "REDIS_PASSWORD"),
            Secret.of("spring.cloud.nacos.password", "NACOS_PASSWORD"),
            Secret.of("spring.cloud.nacos.config.password"),
            Secret.of("spring.cloud.nacos.discovery.password"),
            Secret.of("seata.registry.nacos.password"));

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        SecretSources.check(environment, SECRETS);
        if (environment.getProperty("orders.faults.enabled", Boolean.class, false)) {
            DevstackCredentials.requireLoopback(environment, "fault injection (orders.faults.enabled, profile faults:"
                    + " any caller may ask for failures and delays)");
        }
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
