package io.github.flashstock.inventory.stock.jdbc;

/**
 * One {@code sku_stock} row: {@code total} units ever stocked, {@code sold} confirmed, {@code locked} reserved by
 * Tries on the MySQL path; {@code perUserLimit} null for none.
 */
public record SkuStockRow(String skuId, long total, long sold, long locked, Integer perUserLimit, long version) {

    public long available() {
        return total - sold - locked;
    }
}
