package io.github.flashstock.inventory.reservation;


/** A business refusal of a reservation; nothing was reserved. Each subtype is one fact the caller can act on. */
public abstract sealed class ReservationRefused extends RuntimeException
        permits InsufficientStock, PurchaseLimitExceeded, ReservationCancelled, UnknownSku, StockRecovering,
        InventoryDegraded {

    ReservationRefused(String message) {
        super(message, null, false, false);
    }
}
