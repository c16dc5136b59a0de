package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/epoch.lua}: whether a SKU's stock was built on the Redis process that holds it now. */
@Component
public class EpochScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("epoch.lua");

    /** The reply codes, as the script's header lists them. */
    public enum Code {
        CURRENT, STALE, UNKNOWN_SKU
    }

    private final StringRedisTemplate redis;

    public EpochScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    public Code run(String skuId) {
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)));
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("epoch.lua", reply);
        }
        return Code.values()[code];
    }
}
