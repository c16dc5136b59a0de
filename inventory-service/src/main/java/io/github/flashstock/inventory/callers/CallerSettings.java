package io.github.flashstock.inventory.callers;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.callers}: the services that may reserve stock, each by name with the key it signs
 * its requests with, and how far the signature's time may be from this service's clock.
 *
 * @param keys   service name to shared secret (at least 32 bytes); the service refuses to start without one
 * @param window a signed request older or newer than this is refused
 */
@ConfigurationProperties("inventory.callers")
public record CallerSettings(Map<String, String> keys, @DefaultValue("30s") Duration window) {

    public CallerSettings {
        keys = keys == null ? Map.of() : Map.copyOf(keys);
    }
}
