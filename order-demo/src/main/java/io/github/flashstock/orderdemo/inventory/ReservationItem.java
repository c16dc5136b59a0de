package io.github.flashstock.orderdemo.inventory;

/** One line of a reservation request, as the inventory service reads it. */
public record ReservationItem(String skuId, int quantity) {
}
