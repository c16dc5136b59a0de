package io.github.flashstock.inventory.allotment;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Reads {@code inventory.mysql-store.allotment} from the environment as it is now (Nacos pushes land there). A value that
 * is neither a number of units nor a whole percent is rejected, value by value: a WARN line names it, the counter
 * {@code inventory.allotment.rejected} counts it, and the value in force before stays in force.
 */
@Component
class AllotmentSettingsReader {

    private static final Logger log = LoggerFactory.getLogger(AllotmentSettingsReader.class);
    static final String PREFIX = "inventory.mysql-store.allotment";

    private final Environment environment;
    private final MeterRegistry meters;

    AllotmentSettingsReader(Environment environment, MeterRegistry meters) {
        this.environment = environment;
        this.meters = meters;
    }

    AllotmentPlan read(AllotmentPlan inForce) {
        return read(Binder.get(environment), inForce);
    }

    AllotmentPlan read(Binder binder, AllotmentPlan inForce) {
        AllotmentTarget defaultTarget;
        try {
            defaultTarget = binder.bind(PREFIX + ".default", String.class)
                    .map(raw -> parse(PREFIX + ".default", raw, inForce.defaultTarget()))
                    .orElse(inForce.defaultTarget());
        } catch (BindException e) {
            defaultTarget = rejected(PREFIX + ".default", e, inForce.defaultTarget());
        }
        Map<String, AllotmentTarget> perSku = new LinkedHashMap<>();
        Map<String, String> raw;
        try {
            raw = binder.bind(PREFIX + ".skus", Bindable.mapOf(String.class, String.class)).orElse(Map.of());
        } catch (BindException e) {
            rejected(PREFIX + ".skus", e, null);
            return new AllotmentPlan(defaultTarget, inForce.perSku());
        }
        raw.forEach((sku, value) -> {
            AllotmentTarget stays = inForce.perSku().get(sku);
            AllotmentTarget parsed = parse(PREFIX + ".skus." + sku, value, stays);
            if (parsed != null) {
                perSku.put(sku, parsed);
            }
        });
        return new AllotmentPlan(defaultTarget, perSku);
    }

    /** A setting that does not even have the shape it needs (a map where a value stands, or the reverse). */
    private AllotmentTarget rejected(String key, BindException e, AllotmentTarget stays) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        log.warn("Rejected {}: {}; {} stays in force", key, cause.getMessage(),
                stays == null ? "the value in force" : stays);
        meters.counter("inventory.allotment.rejected", "key", key).increment();
        return stays;
    }

    private AllotmentTarget parse(String key, String raw, AllotmentTarget stays) {
        Optional<AllotmentTarget> parsed = AllotmentTarget.parse(raw);
        if (parsed.isPresent()) {
            return parsed.get();
        }
        log.warn("Rejected allotment {} = '{}' (a number of units such as 50, or a whole percent such as 10%); {}"
                + " stays in force", key, raw, stays == null ? "the default" : stays);
        meters.counter("inventory.allotment.rejected", "key", key).increment();
        return stays;
    }
}
