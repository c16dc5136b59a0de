package io.github.flashstock.inventory.reservation;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** Everything both stores hold about some SKUs: every Redis key of theirs with its value, and their MySQL rows. */
record StockSnapshot(Map<String, Object> redis, List<Map<String, Object>> skuRows, List<Map<String, Object>> ledgerRows) {

    static StockSnapshot of(StringRedisTemplate redis, JdbcTemplate jdbc, String... skus) {
        Map<String, Object> keys = new TreeMap<>();
        for (String sku : skus) {
            Set<String> found = redis.keys("inv:{" + sku + "}*");
            for (String key : found) {
                DataType type = redis.type(key);
                keys.put(key, type == DataType.HASH ? new TreeMap<>(redis.opsForHash().entries(key))
                        : redis.opsForValue().get(key));
            }
        }
        String in = String.join(",", java.util.Collections.nCopies(skus.length, "?"));
        return new StockSnapshot(keys,
                jdbc.queryForList("SELECT * FROM sku_stock WHERE sku_id IN (" + in + ") ORDER BY sku_id", (Object[]) skus),
                jdbc.queryForList("SELECT * FROM stock_ledger WHERE sku_id IN (" + in + ") ORDER BY id", (Object[]) skus));
    }

    /**
     * The same without the REFUSED records of refused Tries (fence keys whose state is REFUSED), the one thing a
     * refusal writes: its stock, segments, buyer counts and rows must be as before.
     */
    StockSnapshot withoutRefusals() {
        Map<String, Object> kept = new TreeMap<>();
        redis.forEach((key, value) -> {
            if (!(key.contains(":tx:") && value instanceof Map<?, ?> h && "REFUSED".equals(h.get("state")))) {
                kept.put(key, value);
            }
        });
        return new StockSnapshot(kept, skuRows, ledgerRows);
    }

    /** How many REFUSED records the snapshot holds. */
    long refusals() {
        return redis.size() - withoutRefusals().redis().size();
    }
}
