package io.github.flashstock.inventory.stock;

/** How many segments a SKU should have, as configured; a SKU created without a count gets this one. */
public interface SegmentCounts {

    /** Most segments a SKU may have, wherever the count comes from (admin API, configuration). */
    int MAX = 64;

    int countFor(String skuId);
}
