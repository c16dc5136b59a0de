package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Whoever may write the per-SKU settings' dataId (the service's own Nacos user) can set a SKU's segments and allotment
 * through it, and nothing else: no token, no database, no default for every SKU.
 */
class SkuSettingsDataIdTest {

    private static final String SOURCE = "Config resource 'class path resource [nacos-config/inventory-service-skus.yaml]'"
            + " via location 'optional:classpath:nacos-config/inventory-service-skus.yaml'";

    @Test
    void keepsThePerSkuMapsAndDropsEverythingElseFromThatDataIdOnly() {
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> written = new LinkedHashMap<>();
        written.put("inventory.segments.skus.[hot_1]", "4");
        written.put("inventory.mysql-store.allotment.skus.[hot_1]", "10%");
        written.put("inventory.segments.skus", "");
        written.put("inventory.admin-token", "a-token-someone-wants-in-force");
        written.put("inventory.callers.keys.mallory", "mallorys-own-signing-key-0123456789");
        written.put("spring.datasource.url", "jdbc:mysql://elsewhere/inventory");
        written.put("inventory.segments.default", "64");
        environment.getPropertySources().addFirst(new MapPropertySource(SOURCE, written));
        environment.getPropertySources().addLast(new MapPropertySource("application", Map.of(
                "spring.application.name", "inventory-service", "inventory.segments.default", "1")));
        List<String> dropped = new ArrayList<>();

        int count = SkuSettingsDataId.confine(environment, dropped::add);

        assertThat(count).isEqualTo(4);
        assertThat(dropped).containsExactly("inventory.admin-token", "inventory.callers.keys.mallory",
                "spring.datasource.url", "inventory.segments.default");
        assertThat(environment.getProperty("inventory.segments.skus.[hot_1]")).isEqualTo("4");
        assertThat(environment.getProperty("inventory.mysql-store.allotment.skus.[hot_1]")).isEqualTo("10%");
        assertThat(environment.getProperty("inventory.admin-token")).isNull();
        assertThat(environment.getProperty("spring.datasource.url")).isNull();
        assertThat(environment.getProperty("inventory.segments.default")).as("the service's own file's").isEqualTo("1");
    }

    @Test
    void leavesEveryOtherSourceAsItIs() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addLast(new MapPropertySource("Config resource 'inventory-service.yaml'",
                Map.of("spring.application.name", "inventory-service", "inventory.segments.default", "3")));

        assertThat(SkuSettingsDataId.confine(environment, name -> { })).isZero();
        assertThat(environment.getProperty("inventory.segments.default")).isEqualTo("3");
    }
}
