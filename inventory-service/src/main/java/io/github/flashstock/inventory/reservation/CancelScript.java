package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.RedisDurability;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/cancel.lua} for one SKU of one reservation, or of several in one call ({@link PhaseCoalescer});
 * without a record it writes a tombstone.
 */
@Component
public class CancelScript extends SecondPhaseScript {

    /** Answered as soon as the server answers ({@code inventory.durability} fsync or none). */
    public CancelScript(StringRedisTemplate redis) {
        super(redis, "cancel.lua", 8, null);
    }

    @Autowired
    public CancelScript(StringRedisTemplate redis, RedisDurability durability) {
        super(redis, "cancel.lua", 8, durability.durableWait().orElse(null));
    }

    public PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention) {
        return run(skuId, xid, reservationId, retention, new String[0]);
    }

    /** One reservation's Cancel on one SKU, for {@link #run(java.util.List, Duration)}. */
    static Call call(String skuId, String xid, String reservationId) {
        return new Call(skuId, xid, reservationId, java.util.List.of());
    }

    /**
     * Records that the reservation's Try was refused, on one of its SKUs: a REFUSED record (units a TRIED record of
     * the same branch held, an earlier slot group of the refused Try, go back first, as a Cancel gives them back). A
     * Confirm that meets it takes nothing; a replay of the Try gets the same refusal. A TRIED record of another branch
     * is another attempt of the reservation in the same transaction, which reserved: it is left as it is.
     *
     * @param refusal  what the Try answered: its reply code, its two figures and the SKU it named
     * @param branchId the refused Try's branch
     * @return {@link PhaseOutcome.Applied} (units given back), {@link PhaseOutcome.NoRecord} (a REFUSED record
     *         written), {@link PhaseOutcome.AlreadyApplied} (ended already), {@link PhaseOutcome.HeldInMysql} (the
     *         MySQL store holds the line) or {@link PhaseOutcome.EndedOtherwise} (confirmed already, or reserved by
     *         another branch)
     */
    public PhaseOutcome refuse(String skuId, String xid, String reservationId, Duration retention,
                               RecordedRefusal refusal, long branchId) {
        return run(skuId, xid, reservationId, retention, "REFUSED", Integer.toString(refusal.code().ordinal()),
                Long.toString(refusal.a()), Long.toString(refusal.b()),
                io.github.flashstock.inventory.stock.StockKeys.stock(refusal.skuId()), Long.toString(branchId));
    }

    /** A Try's refusal as {@code try.lua} answers it: code, the SKU of the line that decided, figures a and b. */
    public record RecordedRefusal(TryOutcome.Code code, String skuId, long a, long b) {

        /** The refusal to record for a Try's outcome; empty for outcomes that are not recorded. */
        public static java.util.Optional<RecordedRefusal> of(TryOutcome outcome) {
            if (outcome instanceof TryOutcome.InsufficientStock r) {
                return java.util.Optional.of(new RecordedRefusal(r.code(), r.skuId(), r.available(), 0));
            }
            if (outcome instanceof TryOutcome.PurchaseLimitExceeded r) {
                return java.util.Optional.of(new RecordedRefusal(r.code(), r.skuId(), r.limit(), r.alreadyBought()));
            }
            if (outcome instanceof TryOutcome.SaleClosed r) {
                return java.util.Optional.of(new RecordedRefusal(r.code(), r.skuId(), 0, 0));
            }
            return java.util.Optional.empty();
        }
    }
}
