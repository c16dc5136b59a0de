package io.github.flashstock.inventory.stock.redis;

import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/confirm.lua} for one SKU of one reservation. */
@Component
public class ConfirmScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("confirm.lua");

    private final StringRedisTemplate redis;

    public ConfirmScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @param retention how long the finished fence record is kept */
    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention) {
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), xid, reservationId,
                Long.toString(retention.toSeconds()));
        return PhaseOutcome.decode("confirm.lua", reply);
    }
}
