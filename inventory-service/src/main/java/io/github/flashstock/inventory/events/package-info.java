/**
 * Stock events: what each TCC phase moved ({@link io.github.flashstock.inventory.events.StockMoved}, published as
 * Spring application events), forwarded to RocketMQ off the TCC path, folded into the MySQL ledger by a consumer
 * group, and the dead-letter queue of events that could not be folded. Knows the stock model only.
 */
package io.github.flashstock.inventory.events;
