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
 * Runs {@code lua/rebuild.lua} under the SKU's {@link RebuildLock} (the one {@link ReloadScript} takes too).
 */
@Component
public class RebuildScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("rebuild.lua");

    private final StringRedisTemplate redis;

    public RebuildScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** The reply codes, as the script's header lists them. */
    public enum Code {
        REBUILT, NOT_STALE
    }

    /** What the script did. */
    public sealed interface Outcome {
    }

    /** Rebuilt: the SKU's counters now, and how its open reservations were closed. */
    public record Rebuilt(long available, long sold, long closedConfirmed, long closedCancelled) implements Outcome {
    }

    /** The SKU was current on this server already (rebuilt by another instance): nothing changed. */
    public record NotStale() implements Outcome {
    }

    /**
     * @param confirmedFences the fence keys ({@link StockKeys#fence}) of open reservations the ledger records as
     *                        confirmed; every other open reservation is closed as cancelled
     * @return empty when another rebuild of this SKU holds the lock
     */
    public Optional<Outcome> run(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                                   Duration fenceRetention, int segmentsIfMissing, List<String> confirmedFences,
                                   Duration lockFor) {
        return RebuildLock.holding(redis, skuId, lockFor, () -> runLocked(skuId, mysqlStocked, mysqlSold,
                mysqlReserved, limit, fenceRetention, segmentsIfMissing, confirmedFences, HandoverMarks.NONE,
                BuyerCounts.NONE, false));
    }

    /**
     * The script alone, for a caller that holds the SKU's {@link RebuildLock} already; marks {@code handovers}
     * applied when it rebuilds, sets the buyers' counts (and the MySQL store's records) from {@code buyers}, and
     * marks the stock hash closed when the SKU's sale is ({@code closed}).
     */
    public Outcome runLocked(String skuId, long mysqlStocked, long mysqlSold, long mysqlReserved, int limit,
                             Duration fenceRetention, int segmentsIfMissing, List<String> confirmedFences,
                             HandoverMarks handovers, BuyerCounts buyers, boolean closed) {
        List<String> args = new ArrayList<>(List.of(Long.toString(mysqlStocked), Long.toString(mysqlSold),
                Long.toString(mysqlReserved), Integer.toString(limit), Long.toString(fenceRetention.toSeconds()),
                Integer.toString(segmentsIfMissing), closed ? "1" : "0"));
        args.addAll(handovers.args());
        args.addAll(buyers.args());
        args.addAll(confirmedFences);
        return decode(redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), args.toArray()));
    }

    private static Outcome decode(List<Long> reply) {
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("rebuild.lua", reply);
        }
        return switch (Code.values()[code]) {
            case REBUILT -> new Rebuilt(Scripts.at(reply, 1), Scripts.at(reply, 2), Scripts.at(reply, 3),
                    Scripts.at(reply, 4));
            case NOT_STALE -> new NotStale();
        };
    }
}
