package io.github.flashstock.inventory.events;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code inventory.events}.
 *
 * @param topic        RocketMQ topic of stock events
 * @param bufferSize   events kept in memory while the broker cannot take them; beyond it new events are dropped
 *                     (and counted): Redis and MySQL are already right, the reconciler reports what the ledger lacks
 * @param inFlight     sends awaiting the broker's answer at once
 * @param retryBackoff pause before a failed send is tried again
 * @param maxRedeliveries failed deliveries the ledger consumer retries before a message goes to its DLQ
 */
@ConfigurationProperties("inventory.events")
public record StockEventSettings(String topic, int bufferSize, int inFlight, Duration retryBackoff,
                                 int maxRedeliveries) {
}
