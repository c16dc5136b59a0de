package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.events.StockEventMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.apache.rocketmq.spring.core.RocketMQPushConsumerLifecycleListener;

/**
 * Every stock event that reached the broker's topic, read by a consumer group of its own (new for each test
 * context, from the topic's first message): what the phases' scripts wrote to Redis and the forwarder sent on.
 */
@RocketMQMessageListener(topic = "${inventory.events.topic}", consumerGroup = "it-recorder-${random.uuid}")
public class RecordedStockEvents implements RocketMQListener<StockEventMessage>,
        RocketMQPushConsumerLifecycleListener {

    private final List<StockEventMessage> events = new CopyOnWriteArrayList<>();

    @Override
    public void prepareStart(DefaultMQPushConsumer consumer) {
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    }

    @Override
    public void onMessage(StockEventMessage event) {
        events.add(event);
    }

    /** The events of one global transaction, in the order they arrived, each once. */
    public List<StockEventMessage> of(String xid) {
        return events.stream().filter(e -> e.xid().equals(xid)).distinct().toList();
    }
}
