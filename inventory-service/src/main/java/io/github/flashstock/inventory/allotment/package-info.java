/**
 * The MySQL store's allotments: the units of a SKU only the MySQL store may sell, their targets from configuration,
 * the handovers that move units between Redis and the allotment, and the rebalancer that keeps each allotment at its
 * target.
 */
package io.github.flashstock.inventory.allotment;
