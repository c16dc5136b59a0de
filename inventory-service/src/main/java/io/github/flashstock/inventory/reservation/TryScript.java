package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.RedisDurability;
import io.github.flashstock.inventory.redis.DurableWait;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/try.lua}: reserves the lines of one or more reservations, each all or nothing, in one script. On
 * a Redis Cluster all lines given to one call must hash to one slot; the callers group them (see
 * {@code lua/try.lua}).
 */
@Component
public class TryScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("try.lua");

    private final StringRedisTemplate redis;
    /** Under {@code inventory.durability: replica}: runs each call and waits for its writes to reach replicas. */
    private final DurableWait durableWait;

    /** Calls answered as soon as the server answers ({@code inventory.durability} fsync or none). */
    public TryScript(StringRedisTemplate redis) {
        this(redis, (DurableWait) null);
    }

    @Autowired
    public TryScript(StringRedisTemplate redis, RedisDurability durability) {
        this(redis, durability.durableWait().orElse(null));
    }

    /** @param durableWait when not null, every call goes through it */
    public TryScript(StringRedisTemplate redis, DurableWait durableWait) {
        this.redis = redis;
        this.durableWait = durableWait;
    }

    /**
     * @param lines merged lines (one per SKU), each quantity positive
     */
    public TryOutcome run(String xid, String reservationId, long branchId, String userId, List<StockLine> lines) {
        return run(List.of(new TryRequest(xid, reservationId, branchId, userId, lines))).get(0);
    }

    /**
     * Decides the reservations one after the other in one script call, each seeing what the ones before it
     * reserved.
     *
     * @return one outcome per request, in the same order
     */
    public List<TryOutcome> run(List<TryRequest> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> keyIndex = new HashMap<>();
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>(requests.size() * 7);
        for (TryRequest request : requests) {
            args.add(request.xid());
            args.add(request.reservationId());
            args.add(Long.toString(request.branchId()));
            args.add(request.userId());
            args.add(Integer.toString(request.lines().size()));
            for (StockLine line : request.lines()) {
                Integer k = keyIndex.computeIfAbsent(StockKeys.stock(line.skuId()), key -> {
                    keys.add(key);
                    return keys.size();
                });
                args.add(k.toString());
                args.add(Integer.toString(line.quantity()));
            }
        }
        List<Long> reply = durableWait == null ? redis.execute(SCRIPT, keys, args.toArray())
                : longs(durableWait.run(SCRIPT, keys, args));
        if (reply == null || reply.size() != 4 * requests.size()) {
            throw Scripts.unknownCode("try.lua (" + requests.size() + " reservations)", reply);
        }
        List<TryOutcome> outcomes = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            outcomes.add(TryOutcome.decode(reply.subList(4 * i, 4 * i + 4), requests.get(i).lines()));
        }
        return outcomes;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<Long> longs(List<Object> reply) {
        // the phase scripts answer integers only, which Lettuce decodes to Longs
        return (List) reply;
    }
}
