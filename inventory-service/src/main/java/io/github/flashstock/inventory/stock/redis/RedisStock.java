package io.github.flashstock.inventory.stock.redis;

import java.util.List;

/**
 * A SKU's stock as Redis holds it. {@code available = total - locked}; conservation:
 * {@code total + sold - locked == stocked}.
 *
 * @param segmentsView every segment that exists (active ones first), as (index, total, locked)
 */
public record RedisStock(String skuId, long total, long locked, long sold, long stocked, int limit, int segments,
                         List<Segment> segmentsView) {

    public long available() {
        return total - locked;
    }

    public record Segment(int index, long total, long locked) {
    }
}
