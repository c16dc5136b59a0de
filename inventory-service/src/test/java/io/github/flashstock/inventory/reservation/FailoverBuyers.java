package io.github.flashstock.inventory.reservation;

import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * Buyers for the tests that fail a Redis primary over mid-sale (on the Cluster, through Sentinel): orders through
 * Seata against the service, and reads of a Redis node's {@code INFO}.
 */
final class FailoverBuyers {

    private final InventoryClient inventory;
    private final String transactionName;

    FailoverBuyers(InventoryClient inventory, String transactionName) {
        this.inventory = inventory;
        this.transactionName = transactionName;
    }

    /**
     * A buyer who keeps buying one unit at a time, and committing, until the SKU is sold out (a 409) or
     * {@code soldOut} is set by another: after any other answer (a 503, to retry) it waits 200 ms and buys on. Every
     * answer is noted, every commit counted. A buyer still buying after {@code patience} gives up quietly: the test's
     * check that the sale sold out reports it, with the answers.
     */
    void buyUntilSoldOut(String sku, Duration patience, Map<Integer, Integer> answers, AtomicInteger committed,
                         AtomicBoolean soldOut) {
        try {
            await().atMost(patience).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        while (!soldOut.get()) {
                            int status = order(sku, 1, true);
                            answers.merge(status, 1, Integer::sum);
                            if (status == 201) {
                                committed.incrementAndGet();
                            } else if (status == 409) {
                                soldOut.set(true);
                            } else {
                                return false;
                            }
                        }
                        return true;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException stillSelling) {
            // given up: see above
        }
    }

    /** One order of {@code units}, committed or rolled back; the reservation's status. */
    int order(String sku, int units, boolean commit) throws Exception {
        GlobalTransaction tx = GlobalTransactions.begin(transactionName);
        try {
            int status = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                    List.of(new InventoryClient.Item(sku, units))).getStatusCode().value();
            if (commit && status == 201) {
                tx.commit();
            } else {
                tx.rollback();
            }
            return status;
        } finally {
            RootContext.unbind();
        }
    }

    ResponseEntity<JsonNode> reserveAndRollBack(String sku, int units) throws Exception {
        GlobalTransaction tx = GlobalTransactions.begin(transactionName);
        try {
            return inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "bob",
                    List.of(new InventoryClient.Item(sku, units)));
        } finally {
            tx.rollback();
            RootContext.unbind();
        }
    }

    static String serverInfo(int port, String field) {
        return serverInfo(port, field, "server");
    }

    static String serverInfo(int port, String field, String section) {
        for (String line : onNode(port, c -> c.info(section)).lines().toList()) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalStateException("no " + field + " in INFO " + section + " of port " + port);
    }

    static <T> T onNode(int port, java.util.function.Function<
            io.lettuce.core.api.sync.RedisCommands<String, String>, T> command) {
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create("redis://127.0.0.1:" + port);
        try (var connection = client.connect()) {
            return command.apply(connection.sync());
        } finally {
            client.shutdown();
        }
    }
}
