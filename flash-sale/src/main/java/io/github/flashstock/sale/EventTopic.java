package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Every stock event on the broker's topic since it began, read by a consumer group of its own from the first
 * message, kept as {@code xid|reservation|sku|phase} per SKU. What inventory-service's forwarder delivered, so a drill
 * can check that no reservation's events went missing, whatever died on the way.
 */
final class EventTopic implements AutoCloseable {

    /** As {@code nacos-config/inventory-service.yaml} ships it ({@code inventory.events.topic}). */
    static final String TOPIC = "stock-events";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DefaultLitePullConsumer consumer;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Thread poller;
    private volatile boolean running = true;

    EventTopic(String nameServer) {
        consumer = new DefaultLitePullConsumer("drill-events-" + UUID.randomUUID().toString().substring(0, 8));
        consumer.setNamesrvAddr(nameServer);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        try {
            consumer.subscribe(TOPIC, "*");
            consumer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot read topic " + TOPIC + " at " + nameServer + ": " + e, e);
        }
        poller = new Thread(this::poll, "drill-event-topic");
        poller.setDaemon(true);
        poller.start();
    }

    private void poll() {
        while (running) {
            try {
                for (MessageExt m : consumer.poll(500)) {
                    JsonNode e = JSON.readTree(m.getBody());
                    seen.add(key(e.path("xid").asText(), e.path("reservationId").asText(), e.path("skuId").asText(),
                            e.path("phase").asText()));
                }
            } catch (IOException | RuntimeException e) {
                // a body that is not an event, or the broker away for a moment: the next poll goes on
            }
        }
    }

    static String key(String xid, String reservation, String sku, String phase) {
        return xid + "|" + reservation + "|" + sku + "|" + phase;
    }

    /**
     * The events the ledger's rows call for that the topic does not have: every row its Try's TRIED event, and a row
     * that ended its CONFIRMED or CANCELLED event (one line each). Rows of the MySQL store call for none: its Try,
     * Confirm and Cancel write the ledger row in their own transaction, with the stock they move, and send no stock
     * events (docs/design.md, "When Redis is down").
     */
    List<String> missing(List<StateReader.LedgerRow> ledger) {
        return missing(ledger, seen);
    }

    static List<String> missing(List<StateReader.LedgerRow> ledger, Set<String> seen) {
        return ledger.stream().filter(r -> !"MYSQL".equals(r.store()))
                .flatMap(r -> (r.state().equals("TRIED") ? List.of("TRIED")
                        : List.of("TRIED", r.state())).stream()
                .filter(phase -> !seen.contains(key(r.xid(), r.orderId(), r.skuId(), phase)))
                .map(phase -> phase + " of " + r.orderId() + " on " + r.skuId() + " (xid " + r.xid() + ")"))
                .toList();
    }

    @Override
    public void close() {
        running = false;
        try {
            poller.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.shutdown();
    }
}
