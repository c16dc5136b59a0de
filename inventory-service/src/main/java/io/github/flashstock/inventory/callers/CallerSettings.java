package io.github.flashstock.inventory.callers;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.callers}: the services that may reserve stock, each by name with the keys it may sign
 * its requests with, and how far the signature's time may be from this service's clock.
 *
 * @param keys   service name to its shared secrets (each at least 32 bytes), at most {@value #KEYS_PER_CALLER}: the key
 *               in use and, while a key is rotated, the next one (comma-separated in one variable:
 *               {@code INVENTORY_CALLER_KEY_ORDER_DEMO=<current>,<next>}); the service refuses to start without one
 * @param window a signed request older or newer than this is refused
 */
@ConfigurationProperties("inventory.callers")
public record CallerSettings(Map<String, List<String>> keys, @DefaultValue("30s") Duration window) {

    /** Two keys at once: the one a caller signs with now, and the one it will sign with once rotated. */
    public static final int KEYS_PER_CALLER = 2;

    public CallerSettings {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        if (keys != null) {
            keys.forEach((name, list) -> copy.put(name, list == null ? List.of()
                    : list.stream().map(String::strip).filter(k -> !k.isEmpty()).toList()));
        }
        keys = Map.copyOf(copy);
    }
}
