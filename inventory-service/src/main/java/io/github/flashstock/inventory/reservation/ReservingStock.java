package io.github.flashstock.inventory.reservation;

import org.apache.seata.core.context.RootContext;
import org.springframework.stereotype.Service;

/** Reserving stock inside the caller's global transaction: the use case behind {@code POST /reservations}. */
@Service
public class ReservingStock {

    private final ReservationAction action;
    private final SoldOutShortcut soldOut;

    public ReservingStock(ReservationAction action, SoldOutShortcut soldOut) {
        this.action = action;
        this.soldOut = soldOut;
    }

    /**
     * Reserves the lines as a TCC branch of the global transaction bound to this thread (Seata binds the caller's
     * {@code TX_XID} header for the request). A Try of a SKU that sold out is refused before it becomes a branch
     * ({@link SoldOutShortcut}).
     *
     * @throws TryRefused when refused; nothing is reserved then
     */
    public void reserve(String reservationId, String userId, ReservationLines lines) {
        var early = soldOut.refusal(RootContext.getXID(), reservationId, lines.lines());
        if (early.isPresent()) {
            throw new TryRefused(early.get());
        }
        try {
            action.reserve(null, reservationId, userId, lines);
        } catch (TryRefused e) {
            if (e.refusal().code() == TryOutcome.Code.INSUFFICIENT_STOCK) {
                soldOut.refusedFor(e.refusal().skuId());
            }
            throw e;
        }
    }
}
