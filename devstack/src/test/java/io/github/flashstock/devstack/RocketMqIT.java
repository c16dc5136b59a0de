package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.junit.DevStackTest;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

@DevStackTest(Component.ROCKETMQ)
class RocketMqIT {

    private static final String TOPIC = "devstack-selftest";

    @Test
    void sendsAndReceivesAMessage(Endpoints endpoints) throws Exception {
        String run = UUID.randomUUID().toString();
        BlockingQueue<MessageExt> received = new LinkedBlockingQueue<>();

        // Given a consumer of a fresh group, reading the topic from its start
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("devstack-it-" + run);
        consumer.setNamesrvAddr(endpoints.namesrvAddress());
        consumer.setInstanceName("it-consumer-" + run);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            received.addAll(msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        DefaultMQProducer producer = new DefaultMQProducer("devstack-it-producer-" + run);
        producer.setNamesrvAddr(endpoints.namesrvAddress());
        producer.setInstanceName("it-producer-" + run);
        try {
            consumer.start();
            producer.start();

            // When a message is sent
            Message message = new Message(TOPIC, "it", run, ("hello " + run).getBytes(StandardCharsets.UTF_8));
            SendResult sent = producer.send(message);
            assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);

            // Then the consumer gets it (among whatever earlier runs left on the topic)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            MessageExt got = null;
            while (got == null && System.nanoTime() < deadline) {
                MessageExt m = received.poll(1, TimeUnit.SECONDS);
                if (m != null && run.equals(m.getKeys())) {
                    got = m;
                }
            }
            assertThat(got).as("message %s received within 60 s", run).isNotNull();
            assertThat(new String(got.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello " + run);
            assertThat(got.getMsgId()).isEqualTo(sent.getMsgId());
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
    }
}
