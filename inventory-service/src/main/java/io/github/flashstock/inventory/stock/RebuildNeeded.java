package io.github.flashstock.inventory.stock;

/**
 * An application event: a Try or a handover met a SKU Redis cannot sell from as it is (stale, or missing though MySQL
 * knows it). The rebuild room listens and rebuilds the SKU from MySQL; publishing returns at once.
 */
public record RebuildNeeded(String skuId) {
}
