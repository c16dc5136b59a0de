package io.github.flashstock.inventory.segments;

import io.github.flashstock.inventory.stock.SegmentCounts;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Reads {@code inventory.segments} from the environment as it is now. A value that is not a whole number from 1 to
 * {@value SegmentCounts#MAX} is rejected, value by value: a WARN line names it, the counter
 * {@code inventory.segments.rejected} counts it, and the count in force before stays in force.
 */
@Component
class SegmentSettingsReader {

    private static final Logger log = LoggerFactory.getLogger(SegmentSettingsReader.class);
    static final String PREFIX = "inventory.segments";

    private final Environment environment;
    private final MeterRegistry meters;

    SegmentSettingsReader(Environment environment, MeterRegistry meters) {
        this.environment = environment;
        this.meters = meters;
    }

    /** The plan the environment describes, with every invalid value replaced by its value in {@code inForce}. */
    SegmentPlan read(SegmentPlan inForce) {
        return read(Binder.get(environment), inForce);
    }

    /** The plan the given properties describe (e.g. a dataId's content as Nacos pushed it), as {@link #read(SegmentPlan)}. */
    SegmentPlan read(Binder binder, SegmentPlan inForce) {
        SegmentPlan next = new SegmentPlan(inForce.defaultCount(), Map.of());
        Optional<String> rawDefault = Optional.ofNullable(binder.bind(PREFIX + ".default", String.class).orElse(null));
        if (rawDefault.isPresent()) {
            Optional<Integer> parsed = parse(PREFIX + ".default", rawDefault.get(), inForce.defaultCount());
            if (parsed.isPresent()) {
                next = next.withDefault(parsed.get());
            }
        }
        Map<String, String> overrides = binder.bind(PREFIX + ".skus", Bindable.mapOf(String.class, String.class))
                .orElse(Map.of());
        for (Map.Entry<String, String> override : overrides.entrySet()) {
            String skuId = override.getKey();
            Optional<Integer> parsed = parse(PREFIX + ".skus." + skuId, override.getValue(), inForce.countFor(skuId));
            if (parsed.isPresent()) {
                next = next.withOverride(skuId, parsed.get());
            } else if (inForce.perSku().containsKey(skuId)) {
                next = next.withOverride(skuId, inForce.perSku().get(skuId));
            }
        }
        return next;
    }

    private Optional<Integer> parse(String key, String raw, int stays) {
        String value = raw == null ? "" : raw.trim();
        String reason = null;
        int count = 0;
        if (!value.matches("[0-9]{1,9}|-[0-9]{1,9}")) {
            reason = "not a whole number";
        } else {
            count = Integer.parseInt(value);
            if (count < 1) {
                reason = "a SKU needs at least one segment";
            } else if (count > SegmentCounts.MAX) {
                reason = "at most " + SegmentCounts.MAX + " segments";
            }
        }
        if (reason == null) {
            return Optional.of(count);
        }
        log.warn("Rejected segment count {} = '{}' ({}); {} stays in force", key, raw, reason, stays);
        meters.counter("inventory.segments.rejected", "key", key).increment();
        return Optional.empty();
    }
}
