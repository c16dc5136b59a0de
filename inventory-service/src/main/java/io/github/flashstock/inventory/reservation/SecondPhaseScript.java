package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.redis.Scripts;
import io.github.flashstock.inventory.stock.redis.StockKeys;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * What {@code lua/confirm.lua} and {@code lua/cancel.lua} share: one SKU of one reservation, driven by its fence
 * record, the same arguments and the same reply shape ({@link PhaseOutcome}).
 */
abstract class SecondPhaseScript {

    private final StringRedisTemplate redis;
    private final RedisScript<List<Long>> script;
    private final String name;

    SecondPhaseScript(StringRedisTemplate redis, String name) {
        this.redis = redis;
        this.script = Scripts.load(name);
        this.name = name;
    }

    /**
     * @param retention how long the finished fence record (or a tombstone) is kept
     * @param more      the script's further arguments, if it takes any
     */
    PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, String... more) {
        Object[] args = new Object[3 + more.length];
        args[0] = xid;
        args[1] = reservationId;
        args[2] = Long.toString(retention.toSeconds());
        System.arraycopy(more, 0, args, 3, more.length);
        List<Long> reply = redis.execute(script, List.of(StockKeys.stock(skuId)), args);
        return PhaseOutcome.decode(name, reply);
    }
}
