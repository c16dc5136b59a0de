package io.github.flashstock.inventory.segments;

import java.util.Map;
import java.util.TreeMap;

/**
 * The segment counts in force: a default and per-SKU overrides ({@code inventory.segments.default},
 * {@code inventory.segments.skus.<skuId>}).
 */
record SegmentPlan(int defaultCount, Map<String, Integer> perSku) {

    public static final SegmentPlan INITIAL = new SegmentPlan(1, Map.of());

    public SegmentPlan {
        perSku = Map.copyOf(perSku);
    }

    public int countFor(String skuId) {
        return perSku.getOrDefault(skuId, defaultCount);
    }

    SegmentPlan withDefault(int count) {
        return new SegmentPlan(count, perSku);
    }

    SegmentPlan withOverride(String skuId, int count) {
        Map<String, Integer> next = new TreeMap<>(perSku);
        next.put(skuId, count);
        return new SegmentPlan(defaultCount, next);
    }
}
