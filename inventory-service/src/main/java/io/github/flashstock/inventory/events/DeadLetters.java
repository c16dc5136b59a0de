package io.github.flashstock.inventory.events;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The depth of the ledger consumer group's dead-letter queue ({@code %DLQ%<group>}), as gauge
 * {@code inventory.ledger.dlq.depth}: messages that failed every delivery and need a person. Nothing consumes
 * the DLQ, so its depth is the sum of its queues' max offsets; 0 while the broker has never created it.
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
class DeadLetters {

    private final DefaultMQProducer producer;
    private final String topic;

    DeadLetters(RocketMQTemplate rocketmq, @Value("${inventory.events.ledger-group}") String group, MeterRegistry meters) {
        this.producer = rocketmq.getProducer();
        this.topic = "%DLQ%" + group;
        Gauge.builder("inventory.ledger.dlq.depth", this, DeadLetters::depth)
                .description("messages in the ledger consumer's dead-letter queue").register(meters);
    }

    double depth() {
        try {
            long depth = 0;
            for (MessageQueue q : producer.fetchPublishMessageQueues(topic)) {
                depth += producer.maxOffset(q);
            }
            return depth;
        } catch (MQClientException e) {
            return 0;
        }
    }
}
