package io.github.flashstock.inventory.segments;

import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.stock.SegmentCounts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps Redis in step with the configured segment counts. On every configuration change that touches
 * {@code inventory.segments} (a Nacos push, or a refresh after a file change: both end in Spring Cloud's
 * {@link EnvironmentChangeEvent}; in Nacos mode a push also arrives earlier through {@link NacosSegmentsListener}),
 * it works out which SKUs' counts changed and re-segments exactly those, each with one run of
 * {@code lua/resegment.lua}.
 * <p>
 * Several instances receive the same change. The script is atomic and answers UNCHANGED when the SKU already has the
 * count, so the first instance to run it applies the change and the others see it done. Re-segmenting moves only
 * available units and leaves reserved ones where their reservations expect them, so it is safe in the middle of a
 * sale. At start, per-SKU overrides that Redis does not show yet are applied the same way.
 */
@Component
class LiveSegments implements SegmentCounts {

    private static final Logger log = LoggerFactory.getLogger(LiveSegments.class);

    private final SegmentSettingsReader reader;
    private final ResegmentScript resegment;
    private final StockCatalog catalog;
    private final MeterRegistry meters;
    /** Written under this object's lock; read without it. */
    private volatile SegmentPlan inForce = SegmentPlan.INITIAL;
    /** When this instance last applied a count to a SKU in Redis (or found it applied), epoch ms; 0 before. */
    private final AtomicLong lastApplied = new AtomicLong();

    LiveSegments(SegmentSettingsReader reader, ResegmentScript resegment, StockCatalog catalog, MeterRegistry meters) {
        this.reader = reader;
        this.resegment = resegment;
        this.catalog = catalog;
        this.meters = meters;
        TimeGauge.builder("inventory.segments.last-applied", lastApplied, TimeUnit.MILLISECONDS, AtomicLong::get)
                .description("when this instance last applied a segment count (re-segmented, or found it done), as"
                        + " time since the epoch")
                .register(meters);
    }

    /** The counts in force now. */
    public SegmentPlan inForce() {
        return inForce;
    }

    @Override
    public int countFor(String skuId) {
        return inForce.countFor(skuId);
    }

    @EventListener(ApplicationReadyEvent.class)
    public synchronized Map<String, ResegmentOutcome> started() {
        SegmentPlan configured = reader.read(inForce);
        inForce = configured;
        Map<String, ResegmentOutcome> outcomes = new LinkedHashMap<>();
        configured.perSku().forEach((skuId, count) -> apply(skuId, count, outcomes));
        return outcomes;
    }

    @EventListener
    public void changed(EnvironmentChangeEvent event) {
        if (event.getKeys().stream().anyMatch(k -> k.startsWith(SegmentSettingsReader.PREFIX))) {
            refresh();
        }
    }

    /** Reads the settings again and re-segments the SKUs whose count changed; returns what each run did. */
    public synchronized Map<String, ResegmentOutcome> refresh() {
        return change(reader.read(inForce));
    }

    /**
     * Applies the segment counts of a configuration document as it arrived (the service's dataId pushed by Nacos),
     * without waiting for Spring's refresh of the whole environment, which follows and then finds nothing to do.
     */
    public synchronized Map<String, ResegmentOutcome> pushed(Binder document) {
        return change(reader.read(document, inForce));
    }

    private Map<String, ResegmentOutcome> change(SegmentPlan after) {
        SegmentPlan before = inForce;
        Set<String> candidates = new TreeSet<>(before.perSku().keySet());
        candidates.addAll(after.perSku().keySet());
        if (before.defaultCount() != after.defaultCount()) {
            candidates.addAll(catalog.skuIds());
        }
        inForce = after;
        Map<String, ResegmentOutcome> outcomes = new LinkedHashMap<>();
        for (String skuId : candidates) {
            if (before.countFor(skuId) != after.countFor(skuId)) {
                apply(skuId, after.countFor(skuId), outcomes);
            }
        }
        return outcomes;
    }

    private void apply(String skuId, int count, Map<String, ResegmentOutcome> outcomes) {
        try {
            ResegmentOutcome outcome = resegment.run(skuId, count);
            outcomes.put(skuId, outcome);
            String result;
            if (outcome instanceof ResegmentOutcome.Resegmented r) {
                result = "resegmented";
                log.info("SKU {} re-segmented from {} to {} segments ({} available units spread)", skuId, r.from(),
                        r.to(), r.moved());
            } else if (outcome instanceof ResegmentOutcome.Unchanged u) {
                result = "unchanged";
                log.info("SKU {} already has {} segments (applied elsewhere, or before)", skuId, u.segments());
            } else {
                result = "unknown-sku";
                log.info("SKU {} is not in Redis; it gets its {} segments when it is created", skuId, count);
            }
            lastApplied.set(System.currentTimeMillis());
            meters.counter("inventory.segments.applied", "result", result).increment();
        } catch (RuntimeException e) {
            meters.counter("inventory.segments.applied", "result", "error").increment();
            log.error("SKU {}: could not apply {} segments; the next change of its count (or, for a per-SKU override, the "
                    + "next start) applies it", skuId, count, e);
        }
    }
}
