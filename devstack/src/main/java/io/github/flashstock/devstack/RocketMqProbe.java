package io.github.flashstock.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * Talks to the name server through the RocketMQ client: route checks and topic creation. Kept apart from
 * {@link RocketMqServer} so that stopping the stack never loads client classes.
 */
final class RocketMqProbe {

    private static final String DEFAULT_TOPIC = "TBW102";

    private RocketMqProbe() {
    }

    static boolean hasRoute(String namesrv, String topic, Path logDir) {
        DefaultMQProducer producer = producer(namesrv, logDir);
        try {
            producer.start();
            return !producer.fetchPublishMessageQueues(topic).isEmpty();
        } catch (MQClientException e) {
            return false;
        } finally {
            producer.shutdown();
        }
    }

    /**
     * Waits until the broker has registered the default topic's route, then creates each topic (4 queues).
     * The broker's first registration can be missed when it starts fast; it re-registers every 30 s at the
     * latest, which the timeout leaves room for.
     */
    static void awaitRouteAndCreateTopics(String namesrv, List<String> topics, Duration timeout, Path logDir) {
        Processes.await("the RocketMQ route of " + DEFAULT_TOPIC + " at " + namesrv, timeout,
                () -> hasRoute(namesrv, DEFAULT_TOPIC, logDir));
        DefaultMQProducer producer = producer(namesrv, logDir);
        try {
            producer.start();
            for (String topic : topics) {
                producer.createTopic(DEFAULT_TOPIC, topic, 4, null);
            }
            for (String topic : topics) {
                Processes.await("the RocketMQ route of topic " + topic, timeout, () -> {
                    try {
                        return !producer.fetchPublishMessageQueues(topic).isEmpty();
                    } catch (MQClientException e) {
                        return false;
                    }
                });
            }
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot create RocketMQ topics " + topics + ": " + e.getMessage(), e);
        } finally {
            producer.shutdown();
        }
    }

    private static DefaultMQProducer producer(String namesrv, Path logDir) {
        if (System.getProperty("rocketmq.client.logRoot") == null) {
            System.setProperty("rocketmq.client.logRoot", logDir.resolve("client-logs").toString());
        }
        DefaultMQProducer producer = new DefaultMQProducer("devstack-probe-" + UUID.randomUUID());
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("devstack-probe-" + UUID.randomUUID());
        producer.setVipChannelEnabled(false);
        producer.setMqClientApiTimeout(3000);
        return producer;
    }
}
