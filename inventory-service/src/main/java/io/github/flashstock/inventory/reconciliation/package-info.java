/**
 * Reconciliation between Redis and MySQL: stock events forwarded to RocketMQ off the TCC path, and folded into
 * the MySQL ledger by a consumer group. Listens to the stock model; the TCC path never depends on it.
 */
package io.github.flashstock.inventory.reconciliation;
