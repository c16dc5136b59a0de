package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/migrate.lua}: moves one SKU from the first release's Redis fields to the shared vocabulary. */
@Component
class MigrateScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("migrate.lua");

    private final StringRedisTemplate redis;

    public MigrateScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    public MigrateOutcome run(String skuId) {
        return MigrateOutcome.decode(redis.execute(SCRIPT, List.of(StockKeys.stock(skuId))));
    }
}
