package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.events.StockMoved;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.stereotype.Component;

/**
 * Forwards every {@link StockMoved} event to RocketMQ without ever blocking or failing the phase that published
 * it: the listener only queues; one sender thread sends asynchronously, a bounded number at a time, and puts a
 * failed send back in the queue to try again after a pause, so a broker outage loses nothing that fits the
 * buffer. Runs only when a name server is configured ({@code rocketmq.name-server}).
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
class StockEventForwarder implements SmartLifecycle, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StockEventForwarder.class);

    private final RocketMQTemplate rocketmq;
    private final StockEventSettings settings;
    private final MeterRegistry meters;
    private final BlockingQueue<StockEventMessage> queue;
    private final Semaphore inFlight;
    private volatile Thread sender;
    private volatile boolean running;
    private final java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.ScheduledExecutorService retries =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "stock-event-retry");
                t.setDaemon(true);
                return t;
            });

    StockEventForwarder(RocketMQTemplate rocketmq, StockEventSettings settings, MeterRegistry meters) {
        this.rocketmq = rocketmq;
        this.settings = settings;
        this.meters = meters;
        this.queue = new LinkedBlockingQueue<>(settings.bufferSize());
        this.inFlight = new Semaphore(settings.inFlight());
        meters.gaugeCollectionSize("inventory.events.buffered", java.util.List.of(), queue);
    }

    @EventListener
    void on(StockMoved moved) {
        if (!queue.offer(StockEventMessage.of(moved))) {
            meters.counter("inventory.events", "result", "dropped").increment();
            log.warn("stock event buffer full ({}), event dropped: {}", settings.bufferSize(), moved);
        }
    }

    private void sendLoop() {
        while (running || !queue.isEmpty()) {
            StockEventMessage event;
            try {
                event = queue.poll(200, TimeUnit.MILLISECONDS);
                if (event == null) {
                    continue;
                }
                inFlight.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                rocketmq.asyncSend(settings.topic(), MessageBuilder.withPayload(event)
                        .setHeader("KEYS", event.key()).build(), new SendCallback() {
                            @Override
                            public void onSuccess(SendResult result) {
                                inFlight.release();
                                meters.counter("inventory.events", "result", "sent").increment();
                            }

                            @Override
                            public void onException(Throwable e) {
                                inFlight.release();
                                failed(event, e);
                            }
                        });
            } catch (RuntimeException e) {
                inFlight.release();
                failed(event, e);
            }
        }
    }

    private void failed(StockEventMessage event, Throwable e) {
        meters.counter("inventory.events", "result", "retried").increment();
        if (failures.getAndIncrement() % 100 == 0) {
            log.warn("stock event send failed ({} so far), will retry: {}", failures.get(), e.toString());
        }
        retryLater(event);
    }

    /**
     * Puts the event back in the queue after the backoff. Never sleeps on the calling thread: callbacks run on the
     * client's async send executor, and blocking it would make every queued send time out.
     */
    private void retryLater(StockEventMessage event) {
        retries.schedule(() -> {
            if (!queue.offer(event)) {
                meters.counter("inventory.events", "result", "dropped").increment();
            }
        }, settings.retryBackoff().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void start() {
        running = true;
        sender = new Thread(this::sendLoop, "stock-event-forwarder");
        sender.setDaemon(true);
        sender.start();
    }

    @Override
    public void stop() {
        running = false;
        Thread t = sender;
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        stop();
        retries.shutdownNow();
    }
}
