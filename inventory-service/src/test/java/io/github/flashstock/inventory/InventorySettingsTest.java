package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class InventorySettingsTest {

    @Test
    void readsNamedAdminTokensFromTheEnvironmentAsConfigurationDocumentsThem() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("INVENTORY_ADMIN_TOKEN", "the-services-own-token",
                                "INVENTORY_ADMINTOKENS_ALICE", "alices-own-long-token",
                                "INVENTORY_ADMINTOKENS_OPS_BOB", "bobs-own-long-token")));
        ConfigurationPropertySources.attach(environment);

        InventorySettings settings = Binder.get(environment).bind("inventory", InventorySettings.class).get();

        assertThat(settings.adminToken()).isEqualTo("the-services-own-token");
        assertThat(settings.adminTokens()).containsEntry("alice", "alices-own-long-token");
        assertThat(settings.adminTokens()).containsKey("ops.bob");
    }
}
