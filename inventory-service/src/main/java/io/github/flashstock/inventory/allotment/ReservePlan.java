package io.github.flashstock.inventory.allotment;

import java.util.Map;

/**
 * The reserves in force: a default and per-SKU values ({@code inventory.fallback.reserve.default},
 * {@code inventory.fallback.reserve.skus.<skuId>}).
 */
record ReservePlan(ReserveTarget defaultTarget, Map<String, ReserveTarget> perSku) {

    public static final ReservePlan NONE = new ReservePlan(ReserveTarget.NONE, Map.of());

    public ReservePlan {
        perSku = Map.copyOf(perSku);
    }

    public ReserveTarget targetFor(String skuId) {
        return perSku.getOrDefault(skuId, defaultTarget);
    }

    /** Whether every SKU's reserve is 0 unless it has a value of its own. */
    public boolean noDefault() {
        return defaultTarget.none();
    }
}
