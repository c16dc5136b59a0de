package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/limit.lua}: a SKU's per-user limit in Redis, after MySQL's row has it. */
@Component
public class LimitScript {

    /** The script's reply codes, as its header lists them. */
    public enum Code {
        SET, UNKNOWN_SKU, REBUILDING
    }

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("limit.lua");

    private final StringRedisTemplate redis;

    public LimitScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Sets the limit ({@code null}: none) on the SKU's stock hash. */
    public Code run(String skuId, Integer limit) {
        if (limit != null && limit <= 0) {
            throw new IllegalArgumentException("a per-user limit is positive or none, was " + limit);
        }
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)),
                Integer.toString(limit == null ? 0 : limit));
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("limit.lua", reply);
        }
        return Code.values()[code];
    }
}
