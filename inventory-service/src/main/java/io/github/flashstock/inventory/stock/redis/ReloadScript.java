package io.github.flashstock.inventory.stock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/reload.lua} under a per-SKU lock ({@code <stock key>:reload}), so that two rebuilds of one SKU
 * never run at once, in this instance or any other; the lock is released with {@code lua/release.lua}.
 */
@Component
public class ReloadScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("reload.lua");
    private static final RedisScript<List<Long>> RELEASE = Scripts.load("release.lua");

    private final StringRedisTemplate redis;

    public ReloadScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @return empty when another rebuild of this SKU holds the lock */
    public Optional<ReloadOutcome> run(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                                       Duration lockFor) {
        String lock = lockKey(skuId);
        String token = UUID.randomUUID().toString();
        if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(lock, token, lockFor))) {
            return Optional.empty();
        }
        try {
            List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), Long.toString(mysqlStocked),
                    Long.toString(mysqlSold), Long.toString(mysqlReserved), Integer.toString(limit));
            return Optional.of(ReloadOutcome.decode(reply));
        } finally {
            redis.execute(RELEASE, List.of(lock), token);
        }
    }

    /** The lock a rebuild of this SKU holds; in the SKU's slot. */
    public static String lockKey(String skuId) {
        return StockKeys.stock(skuId) + ":reload";
    }
}
