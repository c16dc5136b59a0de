package io.github.flashstock.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.support.SecretSources.Secret;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** A secret comes from where secrets are kept, never from a dataId, whatever its spelling. */
class SecretSourcesTest {

    private static final List<Secret> SECRETS = List.of(Secret.of("inventory.admin-token", "INVENTORY_ADMIN_TOKEN"),
            Secret.of("inventory.callers.keys.", "INVENTORY_CALLER_KEY_"),
            Secret.of("spring.datasource.password", "INVENTORY_DB_PASSWORD"));
    private static final String DATA_ID = "Config resource 'class path resource [nacos-config/inventory-service.yaml]'"
            + " via location 'optional:classpath:nacos-config/inventory-service.yaml'";

    private static StandardEnvironment with(String sourceName, Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource(sourceName, properties));
        return environment;
    }

    @Test
    void refusesASecretInADataIdWhateverItsSpelling() {
        for (String spelling : List.of("inventory.admin-token", "inventory.adminToken", "inventory.admin_token",
                "INVENTORY_ADMIN_TOKEN", "inventory.callers.keys.order-demo", "inventory.callers.keys[mallory]",
                "INVENTORY_CALLER_KEY_MALLORY", "spring.datasource.password", "INVENTORY_DB_PASSWORD")) {
            assertThatThrownBy(() -> SecretSources.check(with(DATA_ID, Map.of(spelling, "x")), SECRETS))
                    .as(spelling).isInstanceOf(SecretSources.SecretInSharedConfiguration.class)
                    .hasMessageContaining(spelling).hasMessageContaining("nacos-config/inventory-service.yaml");
        }
    }

    @Test
    void refusesItInTheFolderTheDataIdsAreReadFromToo() {
        StandardEnvironment environment = with("Config resource 'file [/etc/flashstock/inventory-service.yaml]'",
                Map.of("inventory.admin-token", "x"));
        environment.getPropertySources().addLast(new MapPropertySource("defaults",
                Map.of(ConfigSourceSwitch.SOURCE, "file:/etc/flashstock/")));

        assertThatThrownBy(() -> SecretSources.check(environment, SECRETS))
                .hasMessageContaining("/etc/flashstock/inventory-service.yaml");
    }

    @Test
    void takesSecretsFromTheEnvironmentTheCommandLineAndTheServicesOwnFile() {
        StandardEnvironment environment = with("commandLineArgs", Map.of("inventory.admin-token", "x"));
        environment.getPropertySources().addLast(new SystemEnvironmentPropertySource("systemEnvironment",
                Map.of("INVENTORY_CALLER_KEY_ORDER_DEMO", "y")));
        environment.getPropertySources().addLast(new MapPropertySource(
                "Config resource 'class path resource [application.yml]' via location 'optional:classpath:/'",
                Map.of("spring.datasource.password", "${INVENTORY_DB_PASSWORD:devstack}")));
        environment.getPropertySources().addLast(new MapPropertySource(DATA_ID, Map.of("inventory.max-lines", "20",
                "inventory.admin-tokens-note", "not a secret")));

        assertThatCode(() -> SecretSources.check(environment, SECRETS)).doesNotThrowAnyException();
    }
}
