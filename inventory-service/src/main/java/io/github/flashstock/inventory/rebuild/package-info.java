/**
 * Rebuilding a SKU's Redis stock from MySQL: stale SKUs (another Redis process's epoch, or lost) once every
 * transaction open at the loss has ended; the operator's reload; the per-SKU rebuild lock.
 */
package io.github.flashstock.inventory.rebuild;
