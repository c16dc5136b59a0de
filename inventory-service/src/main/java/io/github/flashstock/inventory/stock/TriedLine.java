package io.github.flashstock.inventory.stock;

/** One line of a Try on the MySQL store, as its ledger row records it. */
public record TriedLine(String skuId, int quantity) {
}
