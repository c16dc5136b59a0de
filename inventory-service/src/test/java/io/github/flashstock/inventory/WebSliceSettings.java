package io.github.flashstock.inventory;

import io.github.flashstock.inventory.callers.CallerSettings;
import io.github.flashstock.inventory.callers.web.InventorySecurity;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;

/**
 * What a controller slice ({@code @WebMvcTest}) needs of the application besides its controllers: the settings the
 * admin token and the callers' keys are read from ({@code @ConfigurationPropertiesScan} does not reach into a slice),
 * and the service's filter chains, so that a slice answers each caller as the service does.
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties({InventorySettings.class, CallerSettings.class})
@Import(InventorySecurity.class)
public class WebSliceSettings {
}
