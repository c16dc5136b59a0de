package io.github.flashstock.inventory;

import io.github.flashstock.support.SecretSources;
import io.github.flashstock.support.SecretSources.Secret;
import java.util.List;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The inventory's secrets, each from the environment only, never from a dataId ({@link SecretSources}): checked once
 * the configuration is read, before any bean exists.
 */
public final class InventorySecrets implements EnvironmentPostProcessor, Ordered {

    static final List<Secret> SECRETS = List.of(
            Secret.of("inventory.admin-token", "INVENTORY_ADMIN_TOKEN"),
            Secret.of("inventory.admin-tokens.", "INVENTORY_ADMINTOKENS_"),
            Secret.of("inventory.callers.keys.", "INVENTORY_CALLER_KEY_"),
            Secret.of("inventory.cluster.key", "INVENTORY_CLUSTER_KEY"),
            Secret.of("spring.datasource.password", "INVENTORY_DB_PASSWORD"),
            Secret.of("inventory.reconciliation.seata-console.password", "SEATA_CONSOLE_PASSWORD"),
            Secret.of("spring.data.redis.password", "REDIS_PASSWORD"),
            Secret.of("spring.data.redis.sentinel.password"),
            Secret.of("spring.cloud.nacos.password", "NACOS_PASSWORD"),
            Secret.of("spring.cloud.nacos.config.password"),
            Secret.of("spring.cloud.nacos.discovery.password"),
            Secret.of("seata.registry.nacos.password"));

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        SecretSources.check(environment, SECRETS);
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
