package io.github.flashstock.inventory.events;

import java.util.Collection;

/**
 * A phase appended stock events to these SKUs' streams in Redis (the scripts write the events themselves, in the
 * same call as the stock they move): a hint for the forwarder to read those streams now rather than at its next
 * sweep. Losing it loses nothing.
 */
public record StockEventsWritten(Collection<String> skuIds) {
}
