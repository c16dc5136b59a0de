package io.github.flashstock.inventory.stock;

import java.util.List;

/**
 * A SKU's stock as Redis holds it, in the words both stores share: {@code stocked} units given to Redis to sell,
 * {@code available} to Tries, {@code reserved} by open Tries, {@code sold} by Confirms; always
 * {@code available + reserved + sold == stocked}.
 *
 * @param segmentsView every segment that exists (active ones first), as (index, available, reserved)
 */
public record RedisStock(String skuId, long stocked, long available, long reserved, long sold, int limit,
                         int segments, List<Segment> segmentsView) {

    /** Units not sold yet: available or reserved. */
    public long unsold() {
        return available + reserved;
    }

    public record Segment(int index, long available, long reserved) {
    }
}
