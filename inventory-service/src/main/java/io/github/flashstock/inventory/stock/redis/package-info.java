/**
 * The Redis side of the stock model: the key layout ({@link io.github.flashstock.inventory.stock.StockKeys}),
 * the script loader, the stock reader and the wrappers of the scripts that create, restock and reload a SKU. Each
 * wrapper is the only place that builds its script's keys and arguments and decodes its reply; the TCC scripts'
 * wrappers live with the reservation, the resegment script's with the segments.
 */
package io.github.flashstock.inventory.stock.redis;
