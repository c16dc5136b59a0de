package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.redis.RedisHealth;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The Redis store: a Try is {@code lua/try.lua} through the coalescer, a second phase {@code lua/confirm.lua} or
 * {@code lua/cancel.lua} through its own ({@link PhaseCoalescer}), all through the circuit breaker ({@link RedisHealth}), which throws
 * {@code RedisUnreachable} when Redis cannot be asked.
 */
@Component
class RedisStore implements ReservationStore {

    private final TryCoalescer tries;
    private final PhaseCoalescer phases;
    private final CancelScript cancelScript;
    private final BookScript bookScript;
    private final RedisHealth redis;
    private final InventorySettings settings;

    RedisStore(TryCoalescer tries, PhaseCoalescer phases, CancelScript cancelScript, BookScript bookScript,
               RedisHealth redis, InventorySettings settings) {
        this.tries = tries;
        this.phases = phases;
        this.cancelScript = cancelScript;
        this.bookScript = bookScript;
        this.redis = redis;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public TryOutcome reserve(TryRequest request, TryRoute route) {
        return redis.call(() -> tries.reserve(request));
    }

    @Override
    public Optional<PhaseOutcome> end(Phase phase, PhaseLine l, boolean lastWord) {
        return Optional.of(redis.call(() -> switch (phase) {
            case CONFIRM -> phases.confirm(l, lastWord);
            case CANCEL -> phases.cancel(l);
        }));
    }

    /** Counts the reservation towards the buyer's limit in Redis before the MySQL store takes it ({@code book.lua}). */
    BookScript.Booking book(TryRequest request) {
        return redis.call(() -> bookScript.book(request));
    }

    /** Gives back what {@link #book} counted for these lines, where no MySQL row was mirrored onto it since. */
    long releaseBooking(String xid, String reservationId, String userId, List<StockLine> lines) {
        return redis.call(() -> bookScript.release(xid, reservationId, userId, lines));
    }

    @Override
    public PhaseOutcome refuse(PhaseLine l, TryOutcome.Refusal refusal) {
        CancelScript.RecordedRefusal recorded = CancelScript.RecordedRefusal.of(refusal).orElseThrow(() ->
                new IllegalArgumentException("Redis records refusals for stock and for the limit only: " + refusal));
        return redis.call(() -> cancelScript.refuse(l.skuId(), l.xid(), l.reservationId(), settings.fenceRetention(),
                recorded, l.branchId()));
    }
}
