package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.redis.RedisDurability;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** Runs {@code lua/cancel.lua} for one SKU of one reservation; without a record it writes a tombstone. */
@Component
public class CancelScript extends SecondPhaseScript {

    /** Answered as soon as the server answers ({@code inventory.durability} fsync or none). */
    public CancelScript(StringRedisTemplate redis) {
        super(redis, "cancel.lua", null);
    }

    @Autowired
    public CancelScript(StringRedisTemplate redis, RedisDurability durability) {
        super(redis, "cancel.lua", durability.replicaWait().orElse(null));
    }

    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention) {
        return run(skuId, xid, reservationId, retention, new String[0]);
    }
}
