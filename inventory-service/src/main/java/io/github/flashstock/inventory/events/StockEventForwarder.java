package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.catalog.StockCatalog;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Moves stock events from the SKUs' Redis streams (where the phase scripts append them, in the same call as the
 * stock they move) to RocketMQ. An entry is acknowledged and deleted only after the broker accepted it, so a
 * broker outage, or this process dying at any point, loses nothing: what was not sent stays in Redis, and what
 * was sent but not yet deleted is sent again (consumers fold events idempotently).
 *
 * <p>One thread. It reads the SKUs the phases just wrote to ({@link StockEventsWritten}), and every
 * {@code inventory.events.sweep-interval} every SKU MySQL knows, a slice at a time between those, which finds what
 * another instance left behind: entries never read, and entries another forwarder took and did not acknowledge
 * within {@code inventory.events.claim-after} (it died). A SKU whose stream is empty costs the sweep one XLEN.
 * An entry holds the events of one script call on one SKU; a SKU's entries go to the broker
 * {@code inventory.events.batch} at a time, in one request. A failed send leaves its entries pending on this
 * forwarder, which sends them again after {@code inventory.events.retry-backoff}. Runs only when a name server is
 * configured ({@code rocketmq.name-server}); without one the streams keep at most about 100,000 unsent entries per
 * SKU ({@code EVENTS_KEPT} in the scripts).
 */
@Component
@ConditionalOnProperty("rocketmq.name-server")
public class StockEventForwarder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StockEventForwarder.class);

    /** Reads the JSON the scripts write (cjson): plain arrays of strings and numbers. */
    private static final JsonMapper ENTRY_JSON = JsonMapper.builder().build();

    /** SKUs of the sweep looked at between two passes over the SKUs the phases wrote to. */
    private static final int SWEEP_SLICE = 100;

    private final RocketMQTemplate rocketmq;
    private final StockEventSettings settings;
    private final MeterRegistry meters;
    private final StockCatalog catalog;
    private final StockEventStream stream;
    /** Spring's, as for every other JSON the service writes: the bodies' format is the ledger consumer's. */
    private final JsonMapper json;
    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private final Semaphore wake = new Semaphore(0);
    private volatile Thread thread;
    private volatile boolean running;
    private long failures;

    StockEventForwarder(RocketMQTemplate rocketmq, StockEventSettings settings, MeterRegistry meters,
                        StockCatalog catalog, StockEventStream stream, JsonMapper json) {
        this.json = json;
        this.rocketmq = rocketmq;
        this.settings = settings;
        this.meters = meters;
        this.catalog = catalog;
        this.stream = stream;
        meters.gaugeCollectionSize("inventory.events.skus-to-read", List.of(), written);
    }

    /**
     * What waits in every SKU's stream now (one XLEN per SKU MySQL knows, one XRANGE per stream that holds entries):
     * the forwarder's backlog, and with its oldest entry, how far behind RocketMQ is.
     */
    public EventBacklog backlog() {
        EventBacklog total = EventBacklog.NONE;
        for (String sku : catalog.skuIds()) {
            total = total.plus(stream.backlog(sku));
        }
        return total;
    }

    @EventListener
    void on(StockEventsWritten event) {
        written.addAll(event.skuIds());
        wake.release();
    }

    private void loop() {
        Iterator<String> sweep = Collections.emptyIterator();
        long nextSweep = System.nanoTime();
        while (running) {
            try {
                if (!sweep.hasNext() && System.nanoTime() - nextSweep >= 0) {
                    sweep = catalog.skuIds().iterator();
                    nextSweep = System.nanoTime() + settings.sweepInterval().toNanos();
                }
                // the SKUs this instance's phases just wrote to come first, then a slice of the sweep: a sweep over
                // many SKUs never holds up the events of a sale in progress
                for (String sku : List.copyOf(written)) {
                    written.remove(sku);
                    if (!running) {
                        return;
                    }
                    if (forward(sku)) {
                        written.add(sku); // a full batch: there may be more
                    }
                }
                for (int i = 0; i < SWEEP_SLICE && sweep.hasNext() && running; i++) {
                    String sku = sweep.next();
                    if (stream.hasEntries(sku)) {
                        int claimed = stream.claimAbandoned(sku, settings.claimAfter(), settings.batch());
                        if (claimed > 0) {
                            log.info("took over {} stream entries of stock events of SKU {} that another instance"
                                    + " took and never sent", claimed, sku);
                        }
                        written.add(sku);
                    }
                }
                if (written.isEmpty() && !sweep.hasNext()) {
                    wake.tryAcquire(200, TimeUnit.MILLISECONDS);
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
     * Sends one batch of the SKU's entries to the broker, in one request, and deletes them. A failure keeps the SKU
     * to read again, and throws.
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
            List<Message> messages = new ArrayList<>(entries.size());
            List<RecordId> trimmed = new ArrayList<>();
            for (StockEventStream.Entry entry : entries) {
                List<StockEventMessage> events = events(entry);
                if (events.isEmpty()) {
                    trimmed.add(entry.id());
                }
                for (StockEventMessage event : events) {
                    // tagged with its phase: a consumer that needs only some phases has the broker filter the rest
                    messages.add(new Message(settings.topic(), event.phase(), event.key(),
                            json.writeValueAsBytes(event)));
                }
            }
            if (!messages.isEmpty()) {
                send(messages);
            }
            stream.done(sku, entries.stream().map(StockEventStream.Entry::id).toList());
            meters.counter("inventory.events", "result", "sent").increment(messages.size());
            if (!trimmed.isEmpty()) {
                meters.counter("inventory.events", "result", "dropped").increment(trimmed.size());
                log.warn("{} entries of stock events of SKU {} were dropped from its stream unsent (more than it keeps)",
                        trimmed.size(), sku);
            }
            return entries.size() == settings.batch();
        } catch (RuntimeException e) {
            written.add(sku);
            throw e;
        }
    }

    /** One request to the broker for the whole batch (the producer's own timeout and retries). */
    private void send(List<Message> batch) {
        DefaultMQProducer producer = rocketmq.getProducer();
        try {
            producer.send(batch, producer.getSendMsgTimeout());
        } catch (MQClientException | RemotingException | MQBrokerException e) {
            throw new IllegalStateException("the broker did not take " + batch.size() + " stock event(s): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending stock events", e);
        }
    }

    /**
     * The events of a stream entry (one script call's events on one SKU); empty for an entry the stream already
     * dropped (its fields are gone).
     */
    static List<StockEventMessage> events(StockEventStream.Entry entry) {
        Map<Object, Object> f = entry.fields();
        if (f == null || f.get("events") == null) {
            return List.of();
        }
        String phase = String.valueOf(f.get("phase"));
        long at = Long.parseLong(String.valueOf(f.get("at")));
        List<StockEventMessage> events = new ArrayList<>();
        for (JsonNode e : ENTRY_JSON.readTree(String.valueOf(f.get("events")))) {
            String branch = e.path(2).asString("");
            String user = e.path(4).asString("");
            events.add(new StockEventMessage(phase, e.path(0).asString(), e.path(1).asString(),
                    branch.isEmpty() ? 0 : Long.parseLong(branch), entry.skuId(), e.path(3).asLong(),
                    user.isEmpty() ? null : user, "REDIS", at));
        }
        return events;
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
