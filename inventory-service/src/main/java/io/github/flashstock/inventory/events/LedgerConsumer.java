package io.github.flashstock.inventory.events;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.apache.rocketmq.spring.core.RocketMQPushConsumerLifecycleListener;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The consumer group that keeps the ledger complete. A delivery that fails is retried by the broker; after
 * {@code inventory.events.max-redeliveries} failed retries (default 3) the message goes to the group's
 * dead-letter queue ({@code %DLQ%<group>}).
 *
 * <p>The group's first start reads from the oldest message the broker still keeps. RocketMQ's default for a group
 * with no committed offset is the newest one, which skips every event sent between the service's start and the
 * group's first rebalance: on a fresh deployment those Tries would never reach the ledger (a test run caught it).
 * Reading old events again is harmless: the fold is idempotent and only moves a row forward. Once the group has
 * committed offsets this setting no longer matters.
 *
 * <p>The group subscribes to the tag {@code TRIED} only: the forwarder tags every message with its phase, and only a
 * Try's event writes to the ledger ({@link LedgerFold}), so the broker keeps the other half of the traffic
 * (CONFIRMED, CANCELLED) from this consumer. Messages of releases before the tags carry none and are filtered out
 * too: drain the group (its lag at 0) before upgrading from one. A TRIED event missed that way costs only the early
 * row; the reservation's Confirm or Cancel writes its row in any case.
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
@RocketMQMessageListener(topic = "${inventory.events.topic}", consumerGroup = "${inventory.events.ledger-group}",
        selectorExpression = "TRIED")
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
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    }

    @Override
    public void onMessage(StockEventMessage event) {
        boolean moved = fold.fold(event);
        meters.counter("inventory.ledger.events", "phase", event.phase(), "result", moved ? "moved" : "unchanged")
                .increment();
    }
}
