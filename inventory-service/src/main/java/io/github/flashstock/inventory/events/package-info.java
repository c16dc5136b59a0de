/**
 * Stock events: what each TCC phase moved, appended by the phase's script to the SKU's Redis stream in the same
 * call as the stock it moves, forwarded from there to RocketMQ off the TCC path (deleted only once the broker has
 * them), folded into the MySQL ledger by a consumer group, and the dead-letter queue of events that could not be
 * folded. Knows the stock model only.
 */
package io.github.flashstock.inventory.events;
