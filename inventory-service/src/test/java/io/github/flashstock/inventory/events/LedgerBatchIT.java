package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.stock.SalesRecord;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ledger consumer's batches on the devstack's broker and MariaDB: a burst of Try events is written with fewer
 * statements than it has events, its duplicates change no row, the batches and the phases' own MySQL steps meet in
 * any order without failing a phase, and a message that is no stock event goes to the dead-letter queue alone while
 * the events delivered with it are written.
 */
class LedgerBatchIT extends InventoryITSupport {

    @Autowired
    io.github.resilience4j.retry.RetryRegistry retries;

    @Autowired
    RocketMQTemplate rocketmq;

    @Autowired
    JsonMapper json;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    StockEventSettings settings;

    @Autowired
    SalesRecord sales;

    private static StockEventMessage tried(String xid, String reservation, String sku, long units) {
        return new StockEventMessage("TRIED", xid, reservation, 7, sku, units, "u-" + reservation, "REDIS", 1);
    }

    private Message message(StockEventMessage event) {
        return new Message(settings.topic(), "TRIED", event.key(), json.writeValueAsBytes(event));
    }

    /** The messages in one request, as the forwarder sends them: they go to one queue, together. */
    private void send(List<Message> messages) throws Exception {
        rocketmq.getProducer().send(messages);
    }

    private DistributionSummary statementRows() {
        return meters.get("inventory.ledger.batch.size").summary();
    }

    private double tried(String result) {
        return meters.counter("inventory.ledger.events", "phase", "TRIED", "result", result).count();
    }

    private long rows(String xid) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE xid = ?", Long.class, xid);
    }

    private List<Map<String, Object>> snapshot(String xid) {
        return jdbc.queryForList("SELECT reservation_key, sku_id, quantity, state, store, user_id, updated_at"
                + " FROM stock_ledger WHERE xid = ? ORDER BY reservation_key", xid);
    }

    @Test
    void aBurstOfTriesIsWrittenWithFewerStatementsThanEventsAndItsDuplicatesChangeNoRow() throws Exception {
        String sku = "batch-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked) VALUES (?, 100000)", sku);
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        int events = 200;
        List<Message> burst = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            burst.add(message(tried(xid, String.format("r-%03d", i), sku, 1 + i % 3)));
        }
        long statementsBefore = statementRows().count();
        double rowsBefore = statementRows().totalAmount();
        double movedBefore = tried("moved");

        send(burst);

        // Every Try reaches the ledger, as TRIED with its units, in far fewer statements than events (a statement
        // per event would be 200; batches of up to inventory.events.ledger-batch-size make about 200 / 32)
        // (the consumer counts a statement's rows just after it commits: the rows can be read a moment before)
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(xid) == events
                && tried("moved") - movedBefore >= events);
        assertThat(tried("moved") - movedBefore).isGreaterThanOrEqualTo(events);
        assertThat(statementRows().totalAmount() - rowsBefore).isGreaterThanOrEqualTo(events);
        long statements = statementRows().count() - statementsBefore;
        assertThat(statements).isPositive().isLessThan(events / 4);
        // the database agrees: the rows of one statement share its start time, so the burst's rows carry no more
        // distinct creation times than there were statements
        assertThat(jdbc.queryForObject("SELECT COUNT(DISTINCT created_at) FROM stock_ledger WHERE xid = ?", Long.class,
                xid)).isLessThanOrEqualTo(statements);
        for (Map<String, Object> row : snapshot(xid)) {
            int i = Integer.parseInt(((String) row.get("reservation_key")).substring(2));
            assertThat(row.get("state")).isEqualTo("TRIED");
            assertThat(((Number) row.get("quantity")).longValue()).isEqualTo(1 + i % 3);
        }

        // When some reservations are confirmed, and then the whole burst arrives again with other units and buyers
        long sold = 0;
        for (int i = 0; i < 20; i++) {
            sales.confirmed(xid, String.format("r-%03d", i), 7, sku, 1 + i % 3);
            sold += 1 + i % 3;
        }
        List<Map<String, Object>> before = snapshot(xid);
        double unchangedBefore = tried("unchanged");
        List<Message> again = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            again.add(message(new StockEventMessage("TRIED", xid, String.format("r-%03d", i), 7, sku, 99, "someone-else",
                    "REDIS", 2)));
        }
        send(again);

        // Then every duplicate is counted unchanged, and no row changed: not its units, its buyer, its state (the
        // confirmed ones stay CONFIRMED), nor its update time
        await().atMost(Duration.ofSeconds(60)).until(() -> tried("unchanged") - unchangedBefore >= events);
        assertThat(snapshot(xid)).isEqualTo(before);
        assertThat(before.subList(0, 20)).allSatisfy(row -> assertThat(row.get("state")).isEqualTo("CONFIRMED"));
        assertThat(rows(xid)).isEqualTo(events);
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isEqualTo(sold);
    }

    @Test
    void batchesAndThePhasesOwnMySqlStepsMeetInAnyOrderAndNoPhaseFails() throws Exception {
        String sku = "batch-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked) VALUES (?, 100000)", sku);
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        int reservations = 300;
        double foldedBefore = tried("moved") + tried("unchanged");
        List<Callable<Object>> work = new ArrayList<>();
        List<Message> chunk = new ArrayList<>();
        for (int i = 0; i < reservations; i++) {
            String reservation = "r-" + i;
            long units = 1 + i % 3;
            boolean confirm = i % 4 != 0;
            chunk.add(message(tried(xid, reservation, sku, units)));
            if (chunk.size() == 50) {
                List<Message> batch = List.copyOf(chunk);
                work.add(() -> {
                    send(batch);
                    return null;
                });
                chunk.clear();
            }
            work.add(() -> {
                if (confirm) {
                    sales.confirmed(xid, reservation, 7, sku, units);
                } else {
                    sales.cancelled(xid, reservation, 7, sku, units);
                }
                return null;
            });
        }
        Collections.shuffle(work);

        // When the Tries' events are sent in bursts while 8 threads run the phases' MySQL steps, a deadlock between a
        // batch's statement and a phase would fail the phase here
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (Future<Object> done : pool.invokeAll(work)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }

        // Then, once the consumer has folded every event, each row is in its phase's state and each sale counted once
        await().atMost(Duration.ofSeconds(60)).until(() -> tried("moved") + tried("unchanged") - foldedBefore
                >= reservations);
        long expectedSold = 0;
        for (int i = 0; i < reservations; i++) {
            assertThat(jdbc.queryForObject("SELECT state FROM stock_ledger WHERE xid = ? AND reservation_key = ?"
                    + " AND sku_id = ?", String.class, xid, "r-" + i, sku)).as("reservation r-%d", i)
                    .isEqualTo(i % 4 != 0 ? "CONFIRMED" : "CANCELLED");
            if (i % 4 != 0) {
                expectedSold += 1 + i % 3;
            }
        }
        assertThat(rows(xid)).isEqualTo(reservations);
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku))
                .isEqualTo(expectedSold);
        // a batch that met a group in a circle ran again in the consumer, not through the broker's later delivery
        assertThat(retries.retry(LedgerFold.DEADLOCKS).getMetrics().getNumberOfFailedCallsWithRetryAttempt()).isZero();
    }

    @Test
    void aMessageThatIsNoStockEventGoesToTheDeadLetterQueueAloneAndItsNeighboursAreWritten() throws Exception {
        String sku = "batch-" + UUID.randomUUID();
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        double dlqBefore = dlqDepth();
        double unreadableBefore = meters.counter("inventory.ledger.unreadable").count();

        // one request: a Try's event, a message no fold can read, another Try's event
        send(List.of(message(tried(xid, "r-1", sku, 2)),
                new Message(settings.topic(), "TRIED", "poison-" + UUID.randomUUID(),
                        ("not a stock event " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8)),
                message(tried(xid, "r-2", sku, 3))));

        // Both Tries are written, and the unreadable message alone ends in the DLQ after its redeliveries (the
        // devstack's broker redelivers within seconds)
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(xid) == 2);
        await().atMost(Duration.ofSeconds(90)).until(() -> dlqDepth() >= dlqBefore + 1);
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> dlqDepth() == dlqBefore + 1);
        // it was returned on each of its deliveries: the first and every redelivery
        assertThat(meters.counter("inventory.ledger.unreadable").count() - unreadableBefore)
                .isGreaterThanOrEqualTo(settings.maxRedeliveries() + 1);
        assertThat(snapshot(xid)).extracting(row -> ((Number) row.get("quantity")).longValue()).containsExactly(2L, 3L);
    }

    private double dlqDepth() {
        return meters.get("inventory.ledger.dlq.depth").gauge().value();
    }
}
