package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import java.util.OptionalLong;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/** Runs {@code lua/peek.lua}: the units a SKU has available in Redis, when a read can speak for this Try. */
@Component
public class PeekScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("peek.lua");

    /** The reply codes, as the script's header lists them. */
    public enum Code {
        AVAILABLE, ASK_THE_TRY
    }

    private final StringRedisTemplate redis;

    public PeekScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * @return the SKU's units available in Redis; empty when only the Try can answer (no stock hash, a stale one,
     *         or a fence record of this reservation already on the SKU)
     */
    public OptionalLong available(String skuId, String xid, String reservationId) {
        List<Long> reply = redis.execute(SCRIPT, List.of(StockKeys.stock(skuId)), xid, reservationId);
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("peek.lua", reply);
        }
        return Code.values()[code] == Code.AVAILABLE ? OptionalLong.of(Scripts.at(reply, 1)) : OptionalLong.empty();
    }
}
