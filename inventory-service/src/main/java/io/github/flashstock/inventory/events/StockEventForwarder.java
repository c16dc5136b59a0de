package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.stock.StockCatalog;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.stereotype.Component;

/**
 * Moves stock events from the SKUs' Redis streams (where the phase scripts append them, in the same call as the
 * stock they move) to RocketMQ. An entry is acknowledged and deleted only after the broker accepted it, so a
 * broker outage, or this process dying at any point, loses nothing: what was not sent stays in Redis, and what
 * was sent but not yet deleted is sent again (consumers fold events idempotently).
 *
 * <p>One thread. It reads the SKUs the phases just wrote to ({@link StockEventsWritten}), and every
 * {@code inventory.events.sweep-interval} every SKU MySQL knows, which finds what another instance left behind:
 * entries never read, and entries another forwarder took and did not acknowledge within
 * {@code inventory.events.claim-after} (it died). Each SKU's entries go to the broker in batches of
 * {@code inventory.events.batch}, one request each. A failed send leaves its entries pending on this forwarder,
 * which sends them again after {@code inventory.events.retry-backoff}. Runs only when a name server is configured
 * ({@code rocketmq.name-server}); without one the streams keep at most 100,000 unsent events per SKU
 * ({@code EVENTS_KEPT} in the scripts).
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
class StockEventForwarder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StockEventForwarder.class);

    private final RocketMQTemplate rocketmq;
    private final StockEventSettings settings;
    private final MeterRegistry meters;
    private final StockCatalog catalog;
    private final StockEventStream stream;
    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private final Semaphore wake = new Semaphore(0);
    private volatile Thread thread;
    private volatile boolean running;
    private long failures;

    StockEventForwarder(RocketMQTemplate rocketmq, StockEventSettings settings, MeterRegistry meters,
                        StockCatalog catalog, StockEventStream stream) {
        this.rocketmq = rocketmq;
        this.settings = settings;
        this.meters = meters;
        this.catalog = catalog;
        this.stream = stream;
        meters.gaugeCollectionSize("inventory.events.skus-to-read", List.of(), written);
    }

    @EventListener
    void on(StockEventsWritten event) {
        written.addAll(event.skuIds());
        wake.release();
    }

    private void loop() {
        long nextSweep = 0;
        while (running) {
            try {
                boolean sweep = System.nanoTime() - nextSweep >= 0;
                if (sweep) {
                    nextSweep = System.nanoTime() + settings.sweepInterval().toNanos();
                    for (String sku : catalog.skuIds()) {
                        stream.claimAbandoned(sku, settings.claimAfter(), settings.batch());
                        written.add(sku);
                    }
                }
                if (written.isEmpty()) {
                    wake.tryAcquire(200, TimeUnit.MILLISECONDS);
                    continue;
                }
                for (String sku : List.copyOf(written)) {
                    written.remove(sku);
                    if (!running) {
                        return;
                    }
                    if (forward(sku)) {
                        written.add(sku); // a full batch: there may be more
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                meters.counter("inventory.events", "result", "retried").increment();
                if (failures++ % 100 == 0) {
                    log.warn("stock events not forwarded ({} failures so far), will retry: {}", failures,
                            e.toString());
                }
                try {
                    Thread.sleep(settings.retryBackoff().toMillis());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Sends one batch of the SKU's entries and deletes them. A failure keeps the SKU to read again, and throws.
     *
     * @return true when the batch was full
     */
    private boolean forward(String sku) {
        List<StockEventStream.Entry> entries;
        try {
            entries = stream.next(sku, settings.batch());
            if (entries.isEmpty()) {
                return false;
            }
            List<Message<StockEventMessage>> messages = new ArrayList<>(entries.size());
            List<RecordId> trimmed = new ArrayList<>();
            for (StockEventStream.Entry entry : entries) {
                StockEventMessage event = message(entry);
                if (event == null) {
                    trimmed.add(entry.id());
                } else {
                    messages.add(MessageBuilder.withPayload(event).setHeader("KEYS", event.key()).build());
                }
            }
            if (!messages.isEmpty()) {
                rocketmq.syncSend(settings.topic(), messages, rocketmq.getProducer().getSendMsgTimeout());
            }
            stream.done(sku, entries.stream().map(StockEventStream.Entry::id).toList());
            meters.counter("inventory.events", "result", "sent").increment(messages.size());
            if (!trimmed.isEmpty()) {
                meters.counter("inventory.events", "result", "dropped").increment(trimmed.size());
                log.warn("{} stock event(s) of SKU {} were dropped from its stream unsent (more than it keeps)",
                        trimmed.size(), sku);
            }
            return entries.size() == settings.batch();
        } catch (RuntimeException e) {
            written.add(sku);
            throw e;
        }
    }

    /** The message of a stream entry; null for an entry the stream already dropped (its fields are gone). */
    static StockEventMessage message(StockEventStream.Entry entry) {
        Map<Object, Object> f = entry.fields();
        if (f == null || f.isEmpty()) {
            return null;
        }
        String branch = String.valueOf(f.getOrDefault("branch", ""));
        String user = (String) f.get("user");
        return new StockEventMessage(String.valueOf(f.get("phase")), String.valueOf(f.get("xid")),
                String.valueOf(f.get("reservation")), branch.isEmpty() ? 0 : Long.parseLong(branch), entry.skuId(),
                Long.parseLong(String.valueOf(f.get("quantity"))), user == null || user.isEmpty() ? null : user,
                "REDIS", Long.parseLong(String.valueOf(f.get("at"))));
    }

    @Override
    public void start() {
        running = true;
        Thread t = new Thread(this::loop, "stock-event-forwarder");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    @Override
    public void stop() {
        running = false;
        wake.release();
        Thread t = thread;
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
}
