package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;

/** One line of a reservation, as a second phase (or the record of a refusal) meets it in a store. */
public record PhaseLine(String xid, String reservationId, long branchId, String userId, StockLine line) {

    public String skuId() {
        return line.skuId();
    }
}
