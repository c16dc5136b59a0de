package io.github.flashstock.inventory.stock.redis;

import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/cancel.lua} for one SKU of one reservation. */
@Component
public class CancelScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("cancel.lua");

    private final StringRedisTemplate redis;

    public CancelScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @param retention how long the finished fence record or tombstone is kept */
    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention) {
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), xid, reservationId,
                Long.toString(retention.toSeconds()));
        return PhaseOutcome.decode("cancel.lua", reply);
    }
}
