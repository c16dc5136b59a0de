package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/init.lua}: creates a SKU's stock in Redis unless it is already there. */
@Component
public class InitScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("init.lua");

    private final StringRedisTemplate redis;

    public InitScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * @param available units Redis may sell
     * @param sold      units already sold elsewhere (e.g. in MySQL); stocked = available + sold
     * @param limit    per-user limit, 0 for none
     * @param segments segment count, at least 1
     */
    public InitOutcome run(String skuId, long available, long sold, int limit, int segments) {
        return run(skuId, available, sold, limit, segments, HandoverMarks.NONE);
    }

    /** As {@link #run(String, long, long, int, int)}, marking {@code handovers} applied when it creates the SKU. */
    public InitOutcome run(String skuId, long available, long sold, int limit, int segments, HandoverMarks handovers) {
        if (available < 0 || sold < 0 || limit < 0 || segments < 1) {
            throw new IllegalArgumentException("invalid stock for " + skuId + ": available=" + available + " sold=" + sold
                    + " limit=" + limit + " segments=" + segments);
        }
        List<String> args = new ArrayList<>(List.of(Long.toString(available), Long.toString(sold),
                Integer.toString(limit), Integer.toString(segments)));
        args.addAll(handovers.args());
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), args.toArray());
        return InitOutcome.decode(reply);
    }
}
