package io.github.flashstock.inventory.reservation;

import java.time.Duration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/confirm.lua} for one SKU of one reservation. The units and the buyer come from the branch's
 * action context; the script uses them only when it finds no fence record.
 */
@Component
public class ConfirmScript extends SecondPhaseScript {

    public ConfirmScript(StringRedisTemplate redis) {
        super(redis, "confirm.lua");
    }

    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, long units,
                            String userId) {
        return run(skuId, xid, reservationId, retention, Long.toString(units), userId);
    }
}
