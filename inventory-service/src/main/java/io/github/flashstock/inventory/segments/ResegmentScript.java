package io.github.flashstock.inventory.segments;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/resegment.lua}: changes a SKU's segment count atomically. */
@Component
public class ResegmentScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("resegment.lua");

    private final StringRedisTemplate redis;

    public ResegmentScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    public ResegmentOutcome run(String skuId, int segments) {
        if (segments < 1) {
            throw new IllegalArgumentException("a SKU needs at least one segment, got " + segments);
        }
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), Integer.toString(segments));
        return ResegmentOutcome.decode(reply);
    }
}
