package io.github.flashstock.inventory.reservation;

import org.springframework.stereotype.Service;

/** Reserving stock inside the caller's global transaction: the use case behind {@code POST /reservations}. */
@Service
public class ReservingStock {

    private final ReservationAction action;

    public ReservingStock(ReservationAction action) {
        this.action = action;
    }

    /**
     * Reserves the lines as a TCC branch of the global transaction bound to this thread (Seata binds the caller's
     * {@code TX_XID} header for the request).
     *
     * @throws ReservationRefused when refused; nothing is reserved then
     */
    public void reserve(String reservationId, String userId, ReservationLines lines) {
        action.reserve(null, reservationId, userId, lines);
    }
}
