package io.github.flashstock.inventory.stock;

import java.util.Objects;

/** Some units of one SKU. */
public record StockLine(String skuId, int quantity) {

    public StockLine {
        Objects.requireNonNull(skuId, "skuId");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
    }
}
