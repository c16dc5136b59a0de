package io.github.flashstock.inventory.stock.redis;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/try.lua}: reserves the lines of one reservation, all or nothing. On a Redis Cluster all lines
 * given to one call must hash to one slot; the caller groups them (see {@code lua/try.lua}).
 */
@Component
public class TryScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("try.lua");

    private final StringRedisTemplate redis;

    public TryScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * @param lines merged lines (one per SKU), each quantity positive
     */
    public TryOutcome run(String xid, String reservationId, long branchId, String userId, List<StockLine> lines) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("a reservation needs at least one line");
        }
        List<String> keys = new ArrayList<>(lines.size());
        List<String> args = new ArrayList<>(5 + lines.size());
        args.add(xid);
        args.add(reservationId);
        args.add(Long.toString(branchId));
        args.add(userId);
        args.add(Long.toString(System.currentTimeMillis()));
        for (StockLine line : lines) {
            keys.add(StockKeys.stock(line.skuId()));
            args.add(Integer.toString(line.quantity()));
        }
        List<Long> reply = redis.execute(SCRIPT, keys, args.toArray());
        return TryOutcome.decode(reply, lines);
    }
}
