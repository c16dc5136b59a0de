package io.github.flashstock.inventory.allotment;

import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * What this instance last saw of each SKU's allotment (units it may sell now), from the rebalancer's rounds and
 * the MySQL store's own Tries: the Try path asks it whether the allotment may take a Try Redis refused for want of
 * stock, without a MySQL query per refusal. It can be a round behind; an allotment it thinks empty refuses like Redis,
 * one it thinks full that is not costs one MySQL Try. Each SKU seen with an allotment is a gauge,
 * {@code inventory.allotment.available{sku}}.
 */
@Component
public class AllotmentLevels {

    private final Map<String, Long> available = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    public AllotmentLevels(MeterRegistry meters) {
        this.meters = meters;
    }

    /** Whether the allotment of any of these SKUs had units when last seen. */
    public boolean mayHave(Collection<StockLine> lines) {
        for (StockLine line : lines) {
            if (available.getOrDefault(line.skuId(), 0L) > 0) {
                return true;
            }
        }
        return false;
    }

    /** The allotment of the SKU holds {@code units} it may sell now. */
    public void saw(String skuId, long units) {
        Long before = available.put(skuId, units);
        if (before == null && units > 0) {
            Gauge.builder("inventory.allotment.available", available, m -> m.getOrDefault(skuId, 0L))
                    .tag("sku", skuId)
                    .description("units of the SKU's allotment the MySQL store may sell now, as last seen")
                    .register(meters);
        }
        if (before == null && units == 0) {
            available.remove(skuId);
        }
    }
}
