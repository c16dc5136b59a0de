/** MySQL side of stock: the {@code sku_stock} rows and the {@code stock_ledger} (MyBatis mappers). */
package io.github.flashstock.inventory.stock.jdbc;
