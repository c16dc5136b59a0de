/**
 * The stock model, known to every room: SKU rows ({@code sku_stock}), the ledger ({@code stock_ledger}), the Redis key
 * layout, the stock reader, the scripts that create, restock and migrate a SKU, the sales record and the schema
 * migration on start.
 */
package io.github.flashstock.inventory.stock;
