package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.redis.Scripts;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The per-SKU lock every rebuild of a SKU's Redis state holds ({@code <stock key>:reload}, in the SKU's slot), so
 * that no two rebuilds of one SKU run at once, in this instance or any other. Taken with {@code SET NX PX} under a
 * random token, ended with {@code lua/unlock.lua} only while it still holds that token.
 */
final class RebuildLock {

    private static final RedisScript<List<Long>> UNLOCK = Scripts.load("unlock.lua");

    private RebuildLock() {
    }

    /** Runs {@code work} holding the SKU's lock; empty, without running it, when someone else holds the lock. */
    static <T> Optional<T> holding(StringRedisTemplate redis, String skuId, Duration lockFor, Supplier<T> work) {
        String lock = ReloadScript.lockKey(skuId);
        String token = UUID.randomUUID().toString();
        if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(lock, token, lockFor))) {
            return Optional.empty();
        }
        try {
            return Optional.of(work.get());
        } finally {
            redis.execute(UNLOCK, List.of(lock), token);
        }
    }
}
