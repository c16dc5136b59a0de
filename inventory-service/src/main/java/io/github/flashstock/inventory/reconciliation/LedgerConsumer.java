package io.github.flashstock.inventory.reconciliation;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.apache.rocketmq.spring.core.RocketMQPushConsumerLifecycleListener;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The consumer group that keeps the ledger complete. A delivery that fails is retried by the broker; after
 * {@code inventory.events.max-redeliveries} failed retries (default 3) the message goes to the group's
 * dead-letter queue ({@code %DLQ%<group>}).
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
@RocketMQMessageListener(topic = "${inventory.events.topic}", consumerGroup = "${inventory.events.ledger-group}")
class LedgerConsumer implements RocketMQListener<StockEventMessage>, RocketMQPushConsumerLifecycleListener {

    private final LedgerFold fold;
    private final MeterRegistry meters;
    private final StockEventSettings settings;

    LedgerConsumer(LedgerFold fold, MeterRegistry meters, StockEventSettings settings) {
        this.fold = fold;
        this.meters = meters;
        this.settings = settings;
    }

    @Override
    public void prepareStart(DefaultMQPushConsumer consumer) {
        consumer.setMaxReconsumeTimes(settings.maxRedeliveries());
    }

    @Override
    public void onMessage(StockEventMessage event) {
        boolean moved = fold.fold(event);
        meters.counter("inventory.ledger.events", "phase", event.phase(), "result", moved ? "moved" : "unchanged")
                .increment();
    }
}
