/**
 * The sale console: what one page shows an operator of a sale in progress, read from the service's own meters and
 * stores as its APIs answer them ({@link io.github.flashstock.inventory.console.InstanceReadings} for one instance,
 * {@link io.github.flashstock.inventory.console.ClusterReadings} for every instance registered), and the per-SKU
 * settings it changes where an operator would ({@link io.github.flashstock.inventory.console.SkuSettingsPublisher},
 * in Nacos). The page itself is {@code static/console/} (docs/operations.md, "The sale console").
 */
package io.github.flashstock.inventory.console;
