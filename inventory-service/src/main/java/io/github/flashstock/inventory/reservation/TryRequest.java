package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;
import java.util.Objects;

/**
 * One reservation's Try: the transaction, the caller's idempotency key, the branch, the buyer, and its lines, one
 * per SKU ({@code try.lua} checks each line against the stock alone; {@link ReservationLines} merges them).
 */
public record TryRequest(String xid, String reservationId, long branchId, String userId, List<StockLine> lines) {

    public TryRequest {
        Objects.requireNonNull(xid, "xid");
        Objects.requireNonNull(reservationId, "reservationId");
        Objects.requireNonNull(userId, "userId");
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("a reservation needs at least one line");
        }
        lines = List.copyOf(lines);
        if (lines.size() > 1 && lines.stream().map(StockLine::skuId).distinct().count() < lines.size()) {
            throw new IllegalArgumentException("lines of one SKU must be merged first: " + lines);
        }
    }
}
