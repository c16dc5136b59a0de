package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.reservation.CancelScript;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/mirror.lua}: tells Redis about one SKU line of a reservation the MySQL store holds, so that the
 * buyer's count there includes it and the fence knows the reservation is not Redis's.
 */
@Component
public class MirrorScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("mirror.lua");

    /** The reply codes, as the script's header lists them. */
    public enum Code {
        MIRRORED, DUPLICATE_RELEASED, ENDED_IN_REDIS, UNKNOWN_SKU, SALE_RETURNED
    }

    /** What the script found; {@code counted}: units the buyer's count holds for the reservation now. */
    public record Outcome(Code code, long counted) {
    }

    private final StringRedisTemplate redis;

    public MirrorScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** @param state the MySQL row's state: TRIED, CONFIRMED or CANCELLED */
    public Outcome run(String skuId, String xid, String reservationId, long units, String userId, String state,
                       Duration retention) {
        return call(skuId, xid, reservationId, units, userId, state, retention);
    }

    /** A REFUSED row of the MySQL store: Redis gets the refusal's record, as try.lua answers it ({@code refusal}). */
    public Outcome runRefused(String skuId, String xid, String reservationId, long units, String userId,
                              CancelScript.RecordedRefusal refusal, Duration retention) {
        return call(skuId, xid, reservationId, units, userId, "REFUSED", retention,
                Integer.toString(refusal.code().ordinal()), Long.toString(refusal.a()), Long.toString(refusal.b()));
    }

    private Outcome call(String skuId, String xid, String reservationId, long units, String userId, String state,
                         Duration retention, String... refusal) {
        List<Object> args = new java.util.ArrayList<>(List.of(xid, reservationId, Long.toString(units),
                userId == null ? "" : userId, state, Long.toString(retention.toSeconds())));
        args.addAll(List.of(refusal));
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), args.toArray());
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("mirror.lua", reply);
        }
        return new Outcome(Code.values()[code], Scripts.at(reply, 1));
    }
}
