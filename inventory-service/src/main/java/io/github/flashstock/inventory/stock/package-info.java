/**
 * The stock model, known to every feature and knowing none: SKU lines, stock views, the catalog (create, restock,
 * reload) and the stores that hold stock (Redis keys and scripts in {@code redis}, MySQL in {@code jdbc}).
 */
package io.github.flashstock.inventory.stock;
