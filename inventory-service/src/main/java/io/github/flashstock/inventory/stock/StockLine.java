package io.github.flashstock.inventory.stock;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Some units of one SKU. */
public record StockLine(String skuId, int quantity) {

    public StockLine {
        Objects.requireNonNull(skuId, "skuId");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
    }

    /** Lines of the same SKU merged into one, in order of first appearance. */
    public static List<StockLine> merge(List<StockLine> lines) {
        Map<String, Integer> merged = new LinkedHashMap<>();
        for (StockLine line : lines) {
            merged.merge(line.skuId(), line.quantity(), Math::addExact);
        }
        List<StockLine> result = new ArrayList<>(merged.size());
        merged.forEach((sku, q) -> result.add(new StockLine(sku, q)));
        return result;
    }
}
