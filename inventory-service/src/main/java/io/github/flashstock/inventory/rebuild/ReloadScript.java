package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.HandoverMarks;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/reload.lua} under the SKU's {@link RebuildLock}.
 */
@Component
public class ReloadScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("reload.lua");

    private final StringRedisTemplate redis;

    public ReloadScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @return empty when another rebuild of this SKU holds the lock */
    public Optional<ReloadOutcome> run(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                                       Duration lockFor) {
        return RebuildLock.holding(redis, skuId, lockFor,
                () -> runLocked(skuId, mysqlStocked, mysqlSold, mysqlReserved, limit, HandoverMarks.NONE, false));
    }

    /**
     * The script alone, for a caller that holds the SKU's {@link RebuildLock} already; marks {@code handovers}
     * applied when it reloads, and marks the stock hash closed when the SKU's sale is ({@code closed}).
     */
    public ReloadOutcome runLocked(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                                   HandoverMarks handovers, boolean closed) {
        List<String> args = new ArrayList<>(List.of(Long.toString(mysqlStocked), Long.toString(mysqlSold),
                Long.toString(mysqlReserved), Integer.toString(limit), closed ? "1" : "0"));
        args.addAll(handovers.args());
        return ReloadOutcome.decode(redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), args.toArray()));
    }

    /**
     * Runs {@code work} holding the SKU's {@link RebuildLock}, the one every rebuild of the SKU (reload, rebuild after lost writes,
     * load) holds and {@code handover.lua} respects. @return empty, without running it, when another holds the lock
     */
    public <T> Optional<T> holdingLock(String skuId, Duration lockFor, java.util.function.Supplier<T> work) {
        return RebuildLock.holding(redis, skuId, lockFor, work);
    }

    /** The lock a rebuild of this SKU holds; in the SKU's slot. */
    public static String lockKey(String skuId) {
        return StockKeys.stock(skuId) + ":reload";
    }
}
