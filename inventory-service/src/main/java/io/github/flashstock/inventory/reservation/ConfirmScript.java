package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.RedisDurability;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/confirm.lua} for one SKU of one reservation, or of several in one call ({@link PhaseCoalescer}).
 * The units and the buyer come from the branch's action context; the script uses them only when it finds no fence
 * record.
 */
@Component
public class ConfirmScript extends SecondPhaseScript {

    /** Answered as soon as the server answers ({@code inventory.durability} fsync or none). */
    public ConfirmScript(StringRedisTemplate redis) {
        super(redis, "confirm.lua", 5, null);
    }

    @Autowired
    public ConfirmScript(StringRedisTemplate redis, RedisDurability durability) {
        super(redis, "confirm.lua", 5, durability.durableWait().orElse(null));
    }

    /** As the next method with {@code takeUnrecorded} true: a missing record's units are taken. */
    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, long units,
                            String userId) {
        return run(skuId, xid, reservationId, retention, units, userId, true);
    }

    /**
     * @param takeUnrecorded whether a missing record's units are taken ({@link PhaseOutcome.TakenUnrecorded},
     *                       {@link PhaseOutcome.Oversold}) or only reported ({@link PhaseOutcome.Unrecorded})
     */
    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, long units,
                            String userId, boolean takeUnrecorded) {
        return run(List.of(call(skuId, xid, reservationId, units, userId, takeUnrecorded)), retention).get(0).get();
    }

    /** One reservation's Confirm on one SKU, for {@link #run(List, Duration)}; the arguments as above. */
    static Call call(String skuId, String xid, String reservationId, long units, String userId,
                     boolean takeUnrecorded) {
        return new Call(skuId, xid, reservationId,
                List.of(Long.toString(units), userId == null ? "" : userId, takeUnrecorded ? "1" : "0"));
    }
}
