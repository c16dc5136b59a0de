package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;
import org.springframework.stereotype.Service;

/** Reserving stock inside the caller's global transaction: the use case behind {@code POST /reservations}. */
@Service
public class ReservingStock {

    private final ReservationAction action;

    public ReservingStock(ReservationAction action) {
        this.action = action;
    }

    /**
     * Reserves the lines (same-SKU lines merged) as a TCC branch of the global transaction bound to this thread.
     *
     * @throws ReservationRefused when refused; nothing is reserved then
     */
    public List<StockLine> reserve(String reservationId, String userId, List<StockLine> lines) {
        List<StockLine> merged = StockLine.merge(lines);
        action.reserve(null, reservationId, userId, ReservationLines.encode(merged));
        return merged;
    }
}
