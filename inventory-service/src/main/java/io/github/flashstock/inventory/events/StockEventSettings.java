package io.github.flashstock.inventory.events;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.events}.
 *
 * @param topic           RocketMQ topic of stock events
 * @param batch           entries of one SKU's stream read at once and sent to the broker in one request (an entry
 *                        holds one script call's events on the SKU: up to the Try coalescing's max-batch)
 * @param retryBackoff    pause after a failed send (or an unreachable Redis) before the forwarder tries again
 * @param sweepInterval   how often the forwarder reads every SKU's stream, not only the ones this instance wrote
 *                        to: it finds what another instance left
 * @param claimAfter      entries another forwarder took and has not acknowledged for this long are taken over
 * @param maxRedeliveries failed deliveries the ledger consumer retries before a message goes to its DLQ
 * @param ledgerBatchSize most messages the ledger consumer takes in one delivery and writes with one statement
 */
@ConfigurationProperties("inventory.events")
public record StockEventSettings(String topic, int batch, Duration retryBackoff, Duration sweepInterval,
                                 Duration claimAfter, int maxRedeliveries, @DefaultValue("32") int ledgerBatchSize) {

    public StockEventSettings {
        if (batch < 1 || batch > 256) {
            throw new IllegalArgumentException("inventory.events.batch must be from 1 to 256, was " + batch);
        }
        if (ledgerBatchSize < 1 || ledgerBatchSize > 1000) {
            throw new IllegalArgumentException("inventory.events.ledger-batch-size must be from 1 to 1000, was "
                    + ledgerBatchSize);
        }
    }
}
