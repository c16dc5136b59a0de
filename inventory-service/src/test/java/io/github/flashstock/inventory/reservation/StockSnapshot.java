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
}
