package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Refuses a Try of a sold-out SKU before it becomes a branch of its global transaction. Most Tries of a flash
 * sale come after the stock is gone; each of them, as a branch, costs a registration at the coordinator and, once
 * the transaction rolls back, a Cancel sent back to this service, for a Try that reserved nothing. Refused here,
 * the transaction's rollback has one branch fewer and this service takes no part in it.
 *
 * <p>Only SKUs a Try of this instance was refused for (insufficient stock) are looked at, so orders of SKUs with
 * stock pay nothing. For those the answer is read fresh from Redis ({@code lua/peek.lua}), never remembered: a unit
 * given back by a Cancel, a restock or a handover is seen by the next Try. The refusal is the one the Try would give
 * ({@code insufficient-stock}, with the units available). The Try goes ahead as usual, and decides, whenever the
 * read cannot speak for it: the SKU's allotment may have units, the Redis breaker is not closed or the read
 * fails, the SKU is unknown or stale in Redis, or the reservation already has a fence record (a replay, a Try after
 * its Cancel, a reservation the MySQL store holds).
 */
@Component
public class SoldOutShortcut {

    private final PeekScript peek;
    private final RedisHealth redis;
    private final AllotmentLevels allotments;
    private final SoldOutSettings settings;
    /** SKUs a Try of this instance was refused for and no read has found enough units of since. */
    private final Set<String> soldOut = ConcurrentHashMap.newKeySet();
    private final Counter refused;

    SoldOutShortcut(PeekScript peek, RedisHealth redis, AllotmentLevels allotments, SoldOutSettings settings,
                    MeterRegistry meters) {
        this.peek = peek;
        this.redis = redis;
        this.allotments = allotments;
        this.settings = settings;
        this.refused = Counter.builder("inventory.reservations.refused-early")
                .description("Tries refused for insufficient stock before they became branches of their global"
                        + " transaction")
                .register(meters);
        meters.gaugeCollectionSize("inventory.sold-out.skus", List.of(), soldOut);
    }

    /** A Try was refused for want of units of this SKU: its next Tries read the SKU before going ahead. */
    void refusedFor(String skuId) {
        if (settings.refuseEarly()) {
            soldOut.add(skuId);
        }
    }

    /**
     * @return the refusal, when a line's SKU is known to have sold out and Redis confirms it has fewer units than
     *         the line asks for; empty when the Try should go ahead
     */
    Optional<TryOutcome.InsufficientStock> refusal(String xid, String reservationId, List<StockLine> lines) {
        if (soldOut.isEmpty()) {
            return Optional.empty();
        }
        for (StockLine line : lines) {
            if (!soldOut.contains(line.skuId())) {
                continue;
            }
            OptionalLong available = read(line.skuId(), xid, reservationId);
            if (available.isEmpty()) {
                return Optional.empty();
            }
            if (available.getAsLong() < line.quantity()) {
                refused.increment();
                return Optional.of(new TryOutcome.InsufficientStock(line.skuId(), line.quantity(), available.getAsLong()));
            }
            soldOut.remove(line.skuId());
        }
        return Optional.empty();
    }

    /**
     * The units of the SKU a Try could take now, as Redis holds them, for a caller deciding whether to start a
     * global transaction at all ({@code GET /skus/{skuId}/available}); empty when only a Try can tell (as for
     * {@link #refusal}).
     */
    public OptionalLong availableNow(String skuId) {
        return read(skuId, "", "");
    }

    private OptionalLong read(String skuId, String xid, String reservationId) {
        if (!redis.healthy() || allotments.mayHave(List.of(new StockLine(skuId, 1)))) {
            return OptionalLong.empty();
        }
        try {
            return redis.call(() -> peek.available(skuId, xid, reservationId));
        } catch (RuntimeException e) {
            return OptionalLong.empty(); // the Try decides, with its own handling of an unreachable Redis
        }
    }
}
