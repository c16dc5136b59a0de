package io.github.flashstock.inventory.allotment;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/handover.lua}: the Redis side of a handover between a SKU's Redis store and its allotment,
 * once per operation id.
 */
@Component
public class HandoverScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("handover.lua");
    private static final RedisScript<List<Long>> MOVING = Scripts.load("moving.lua");

    /** Which way the units go, seen from Redis. */
    public enum Direction {
        /** Redis gives units to the MySQL store's allotment (at most what it has available). */
        OUT,
        /** Redis takes units back from the MySQL store's allotment. */
        IN
    }

    public enum Code {
        MOVED, ALREADY_APPLIED, UNKNOWN_SKU, STALE_SKU, REBUILDING
    }

    /** What the script did; {@code moved} is what this operation moved, now or when it was first applied. */
    public sealed interface Outcome {
        /** Applied now, or before (a replay): either way the operation moved {@code moved} units. */
        record Moved(long moved, long available, boolean replay) implements Outcome {
        }

        record UnknownSku() implements Outcome {
        }

        /** The SKU's Redis server restarted or failed over since the SKU was built: nothing moved. */
        record StaleSku() implements Outcome {
        }

        /** A rebuild of the SKU is running: nothing moved; the rebuild settles the handover, or it goes again. */
        record Rebuilding() implements Outcome {
        }
    }

    private final StringRedisTemplate redis;

    public HandoverScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * Marks {@code units} of the operation as on their way into Redis for {@code counts} ({@code lua/moving.lua}),
     * before the handover's MySQL step takes them out of the allotment; the Redis step removes the mark.
     */
    public void markMovingIn(String skuId, String operationId, long units, Duration counts) {
        redis.execute(MOVING, List.of(StockKeys.stock(skuId)), "MARK", operationId, Long.toString(units),
                Long.toString(counts.toMillis()));
    }

    /** Removes the operation's mark: it moved nothing after all, or it is done. */
    public void unmarkMovingIn(String skuId, String operationId) {
        redis.execute(MOVING, List.of(StockKeys.stock(skuId)), "UNMARK", operationId);
    }

    /** Units the operation moved in Redis, as its marker says; empty when Redis has no marker of it. */
    public OptionalLong moved(String skuId, String operationId) {
        String value = redis.opsForValue().get(StockKeys.handover(skuId, operationId));
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    /**
     * Marks the operation as applied in Redis with {@code units} moved, without moving any (when it has no marker):
     * for a rebuild, whose counters already account for the operation. Only while holding the SKU's rebuild lock.
     */
    public void remember(String skuId, String operationId, long units, Duration remember) {
        redis.opsForValue().setIfAbsent(StockKeys.handover(skuId, operationId), Long.toString(units), remember);
    }

    public Outcome run(String skuId, Direction direction, long units, String operationId, Duration remember) {
        if (units <= 0) {
            throw new IllegalArgumentException("units to hand over must be positive, was " + units);
        }
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), direction.name(),
                Long.toString(units), operationId, Long.toString(remember.toSeconds()));
        long moved = Scripts.at(reply, 1);
        long available = Scripts.at(reply, 2);
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Outcome.Moved(moved, available, false);
            case 1 -> new Outcome.Moved(moved, available, true);
            case 2 -> new Outcome.UnknownSku();
            case 3 -> new Outcome.StaleSku();
            case 4 -> new Outcome.Rebuilding();
            default -> throw Scripts.unknownCode("handover.lua", reply);
        };
    }
}
