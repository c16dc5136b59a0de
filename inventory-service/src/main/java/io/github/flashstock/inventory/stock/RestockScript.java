package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/restock.lua}: adds units, once per operation id. */
@Component
public class RestockScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("restock.lua");

    private final StringRedisTemplate redis;

    public RestockScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    public RestockOutcome run(String skuId, long units, String operationId, Duration remember) {
        if (units <= 0) {
            throw new IllegalArgumentException("units to restock must be positive, was " + units);
        }
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), Long.toString(units), operationId,
                Long.toString(remember.toSeconds()));
        return RestockOutcome.decode(reply);
    }

    /**
     * Marks the operation applied without adding units: for a SKU loaded from MySQL after MySQL applied the
     * operation (the load brought its units along).
     */
    public void remember(String skuId, String operationId, long units, Duration remember) {
        redis.opsForValue().setIfAbsent(StockKeys.restockOperation(skuId, operationId), Long.toString(units), remember);
    }
}
