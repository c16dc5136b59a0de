package io.github.flashstock.inventory;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.stereotype.Component;

/**
 * After every refresh of the configuration, and before anything rebinds to it (this listener runs first), drops from
 * the per-SKU settings' dataId whatever it may not set ({@link SkuSettingsDataId#confine}); each dropped key counts in
 * {@code inventory.settings.dropped}.
 */
@Component
class SkuSettingsRefreshGuard implements ApplicationListener<EnvironmentChangeEvent>, Ordered {

    private final ConfigurableEnvironment environment;
    private final MeterRegistry meters;

    SkuSettingsRefreshGuard(ConfigurableEnvironment environment, MeterRegistry meters) {
        this.environment = environment;
        this.meters = meters;
    }

    @Override
    public void onApplicationEvent(EnvironmentChangeEvent event) {
        SkuSettingsDataId.confine(environment,
                key -> meters.counter("inventory.settings.dropped", "dataId", SkuSettingsDataId.of(environment))
                        .increment());
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
