/** The stock model: SKU lines, stock views and the stores that hold them (Redis scripts, MySQL). */
package io.github.flashstock.inventory.stock;
