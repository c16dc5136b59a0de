package io.github.flashstock.inventory.stock.jdbc;

/**
 * One {@code sku_stock} row, in the words both stores share: {@code stocked} units ever stocked, {@code sold} by
 * Confirms, {@code reserved} by Tries on the MySQL path; {@code perUserLimit} null for none.
 */
public record SkuStockRow(String skuId, long stocked, long sold, long reserved, Integer perUserLimit, long version) {

    /** {@code stocked - sold - reserved}: never negative (the table checks it). */
    public long available() {
        return stocked - sold - reserved;
    }
}
