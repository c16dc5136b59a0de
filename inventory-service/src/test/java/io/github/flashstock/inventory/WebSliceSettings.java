package io.github.flashstock.inventory;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;

/**
 * What a controller slice ({@code @WebMvcTest}) needs of the application besides its controllers: the settings the
 * admin token is read from ({@code @ConfigurationPropertiesScan} does not reach into a slice).
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties(InventorySettings.class)
public class WebSliceSettings {
}
