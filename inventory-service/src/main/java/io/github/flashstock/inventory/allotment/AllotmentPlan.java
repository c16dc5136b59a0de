package io.github.flashstock.inventory.allotment;

import java.util.Map;

/**
 * The allotments in force: a default and per-SKU values ({@code inventory.mysql-store.allotment.default},
 * {@code inventory.mysql-store.allotment.skus.<skuId>}).
 */
record AllotmentPlan(AllotmentTarget defaultTarget, Map<String, AllotmentTarget> perSku) {

    public static final AllotmentPlan NONE = new AllotmentPlan(AllotmentTarget.NONE, Map.of());

    public AllotmentPlan {
        perSku = Map.copyOf(perSku);
    }

    public AllotmentTarget targetFor(String skuId) {
        return perSku.getOrDefault(skuId, defaultTarget);
    }

    /** Whether every SKU's allotment is 0 unless it has a value of its own. */
    public boolean noDefault() {
        return defaultTarget.none();
    }
}
