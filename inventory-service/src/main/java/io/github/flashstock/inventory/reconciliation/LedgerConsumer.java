package io.github.flashstock.inventory.reconciliation;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The consumer group that keeps the ledger complete. A delivery that fails is retried by the broker; after
 * {@code maxReconsumeTimes} failures the message goes to the group's dead-letter queue ({@code %DLQ%<group>}).
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
@RocketMQMessageListener(topic = "${inventory.events.topic}", consumerGroup = "${inventory.events.ledger-group}",
        maxReconsumeTimes = 3)
class LedgerConsumer implements RocketMQListener<StockEventMessage> {

    private final LedgerFold fold;
    private final MeterRegistry meters;

    LedgerConsumer(LedgerFold fold, MeterRegistry meters) {
        this.fold = fold;
        this.meters = meters;
    }

    @Override
    public void onMessage(StockEventMessage event) {
        boolean moved = fold.fold(event);
        meters.counter("inventory.ledger.events", "phase", event.phase(), "result", moved ? "moved" : "unchanged")
                .increment();
    }
}
