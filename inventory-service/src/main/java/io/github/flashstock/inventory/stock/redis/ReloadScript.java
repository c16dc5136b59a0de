package io.github.flashstock.inventory.stock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/reload.lua} under the SKU's {@link RebuildLock}.
 */
@Component
public class ReloadScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("reload.lua");

    private final StringRedisTemplate redis;

    public ReloadScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @return empty when another rebuild of this SKU holds the lock */
    public Optional<ReloadOutcome> run(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                                       Duration lockFor) {
        return RebuildLock.holding(redis, skuId, lockFor, () -> ReloadOutcome.decode(redis.execute(SCRIPT,
                List.of(StockKeys.stock(skuId)), Long.toString(mysqlStocked), Long.toString(mysqlSold),
                Long.toString(mysqlReserved), Integer.toString(limit))));
    }

    /** The lock a rebuild of this SKU holds; in the SKU's slot. */
    public static String lockKey(String skuId) {
        return StockKeys.stock(skuId) + ":reload";
    }
}
