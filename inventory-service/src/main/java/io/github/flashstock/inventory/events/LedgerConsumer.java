package io.github.flashstock.inventory.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.spring.support.RocketMQMessageConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.stereotype.Component;

/**
 * The consumer group that keeps the ledger complete ({@code inventory.events.ledger-group}), on the stock events'
 * topic ({@code inventory.events.topic}), at the name server {@code rocketmq.name-server}; without one it does not
 * run. It takes the messages in batches: a delivery hands it up to {@code inventory.events.ledger-batch-size}
 * messages of one queue (default 32; fewer when fewer are waiting), and {@link LedgerFold} writes all their TRIED
 * rows with one statement, so a burst of Tries costs the database a commit per batch rather than per Try.
 *
 * <p>A plain RocketMQ push consumer, started with the application context and shut down with it: rocketmq-spring's
 * listener container (2.3.5) hands its listener one message at a time, whatever batch size its consumer is given.
 *
 * <p>When the statement fails, the whole delivery is returned to the broker, which delivers each of its messages
 * again later (nothing of it was written, and writing it twice changes nothing). A message that is not a stock event
 * its fold can take ({@link LedgerFold#foldable}) does not hold up the others: they are written, and it alone is
 * returned, counted in {@code inventory.ledger.unreadable}. A message that failed
 * {@code inventory.events.max-redeliveries} redeliveries (default 3) goes to the group's dead-letter queue
 * ({@code %DLQ%<group>}, {@link DeadLetters}).
 *
 * <p>The group's first start reads from the oldest message the broker still keeps. RocketMQ's default for a group
 * with no committed offset is the newest one, which skips every event sent between the service's start and the
 * group's first rebalance: on a fresh deployment those Tries would never reach the ledger.
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
class LedgerConsumer implements SmartLifecycle {

    /** How often the consumer tells the broker its subscription (RocketMQ's default: 30 s). */
    private static final int HEARTBEAT_MILLIS = 5_000;

    private static final Logger log = LoggerFactory.getLogger(LedgerConsumer.class);

    /** How long a shutdown waits for the deliveries under way (rocketmq-spring's default). */
    private static final long SHUTDOWN_WAIT_MILLIS = 1_000;

    private final StockEventSettings settings;
    private final String group;
    private final String nameServer;
    private final Batches batches;
    private volatile DefaultMQPushConsumer consumer;

    LedgerConsumer(LedgerFold fold, RocketMQMessageConverter converter, MeterRegistry meters,
                   StockEventSettings settings, @Value("${inventory.events.ledger-group}") String group,
                   @Value("${rocketmq.name-server}") String nameServer) {
        this.settings = settings;
        this.group = group;
        this.nameServer = nameServer;
        this.batches = new Batches(fold, converter.getMessageConverter(), meters, (message, delayLevel, broker) ->
                consumer.sendMessageBack(message, delayLevel, broker));
    }

    @Override
    public void start() {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(nameServer);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setMaxReconsumeTimes(settings.maxRedeliveries());
        c.setConsumeMessageBatchMaxSize(settings.ledgerBatchSize());
        c.setPullBatchSize(Math.max(c.getPullBatchSize(), settings.ledgerBatchSize()));
        c.setAwaitTerminationMillisWhenShutdown(SHUTDOWN_WAIT_MILLIS);
        // A group new to the broker is refused its pulls ("the subscription is not latest") until the broker has
        // its subscription, which the client's periodic heartbeat brings: every 30 s by default, which would hold a
        // fresh deployment's first ledger rows back up to half a minute. Every 5 s bounds that wait.
        c.setHeartbeatBrokerInterval(HEARTBEAT_MILLIS);
        c.setMessageListener(batches);
        try {
            c.subscribe(settings.topic(), LedgerFold.TRIED);
            c.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("the ledger consumer (group " + group + ") did not start: "
                    + e.getMessage(), e);
        }
        consumer = c;
    }

    @Override
    public void stop() {
        DefaultMQPushConsumer c = consumer;
        if (c != null) {
            c.shutdown();
            consumer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return consumer != null;
    }

    /** Returns one message to the broker, which delivers it again later on its own. */
    @FunctionalInterface
    interface Redelivery {
        void later(MessageExt message, int delayLevel, String brokerName) throws Exception;
    }

    /** One delivery: its messages read, their rows written with one statement, the unreadable ones returned. */
    static final class Batches implements MessageListenerConcurrently {

        private final LedgerFold fold;
        private final MessageConverter converter;
        private final Redelivery redelivery;
        private final Counter unreadable;

        Batches(LedgerFold fold, MessageConverter converter, MeterRegistry meters, Redelivery redelivery) {
            this.fold = fold;
            this.converter = converter;
            this.redelivery = redelivery;
            this.unreadable = Counter.builder("inventory.ledger.unreadable")
                    .description("messages the ledger consumer could not read, returned to the broker").register(meters);
        }

        @Override
        public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
            List<StockEventMessage> events = new ArrayList<>(messages.size());
            List<MessageExt> setAside = new ArrayList<>(0);
            for (MessageExt message : messages) {
                StockEventMessage event = read(message);
                if (event != null) {
                    events.add(event);
                } else {
                    setAside.add(message);
                }
            }
            try {
                fold.fold(events);
            } catch (RuntimeException e) {
                log.warn("{} stock event(s) not written to the ledger, the broker delivers them again: {}",
                        messages.size(), e.toString());
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            for (MessageExt message : setAside) {
                try {
                    redelivery.later(message, context.getDelayLevelWhenNextConsume(),
                            context.getMessageQueue().getBrokerName());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                } catch (Exception e) {
                    // the whole delivery comes back: its events find their rows and change nothing
                    log.warn("message {} could not be returned to the broker alone, the whole delivery is: {}",
                            message.getMsgId(), e.toString());
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                unreadable.increment();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        }

        /** The message's stock event, or null when it is none the fold can take. */
        private StockEventMessage read(MessageExt message) {
            String problem;
            try {
                Object event = converter.fromMessage(MessageBuilder.withPayload(message.getBody()).build(),
                        StockEventMessage.class);
                if (event instanceof StockEventMessage e && LedgerFold.foldable(e)) {
                    return e;
                }
                problem = event == null ? "not JSON of a stock event" : "a stock event without its phase, its row's"
                        + " key or a positive quantity";
            } catch (RuntimeException e) {
                problem = e.toString();
            }
            log.warn("message {} (delivery {}) is not a stock event the ledger can take, returned to the broker: {}",
                    message.getMsgId(), message.getReconsumeTimes() + 1, problem);
            return null;
        }
    }
}
