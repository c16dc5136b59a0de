package io.github.flashstock.inventory.reservation;

import java.time.Duration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** Runs {@code lua/cancel.lua} for one SKU of one reservation; without a record it writes a tombstone. */
@Component
public class CancelScript extends SecondPhaseScript {

    public CancelScript(StringRedisTemplate redis) {
        super(redis, "cancel.lua");
    }

    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention) {
        return run(skuId, xid, reservationId, retention, new String[0]);
    }
}
