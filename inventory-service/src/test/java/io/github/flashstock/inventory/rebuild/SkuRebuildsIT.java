package io.github.flashstock.inventory.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * A Redis that lost acknowledged writes (the last second of an everysec AOF, an asynchronous replica promoted),
 * on the real servers. The loss is made by putting the SKU's keys back as they were before the lost writes and
 * giving its stock the epoch of another Redis process, which is what a restart or failover leaves behind: the
 * server's run id changes and the data is older than what was acknowledged.
 */
class SkuRebuildsIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    SkuRebuilds rebuilds;

    InventoryClient inventory;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
    }

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    @Test
    void aSkuWhoseRedisLostATryIsRefusedUntilRebuiltAndThenSellsOnlyWhatIsLeft() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        Map<String, byte[]> before = dump(sku, List.of());
        GlobalTransaction lost = begin();
        String lostReservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(lost.getXid(), lostReservation, "alice", List.of(new InventoryClient.Item(sku, 4)))
                .getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        // Redis restarts without the Try: its stock as before it, no fence record, another process's epoch
        restore(before);
        redis.delete(List.of(StockKeys.fence(sku, lost.getXid(), lostReservation), StockKeys.buyer(sku, "alice")));
        staleEpoch(sku);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(10);

        // the stale SKU sells nothing, though its counters show ten units: answered 503 with Retry-After
        GlobalTransaction refused = begin();
        ResponseEntity<JsonNode> answer = inventory.reserve(refused.getXid(), "order-" + UUID.randomUUID(), "bob",
                List.of(new InventoryClient.Item(sku, 8)));
        refused.rollback();
        RootContext.unbind();
        assertThat(answer.getStatusCode().value()).as("%s", answer.getBody()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(answer.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:sku-rebuilding");
        assertThat(answer.getBody().path("skuId").asText()).isEqualTo(sku);

        // the coordinator commits the lost Try: its Confirm finds no record and MySQL counts the sale
        GlobalTransactions.commit(lost);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 4);

        // once every transaction open at the loss has ended, the SKU is rebuilt from MySQL
        await().atMost(Duration.ofMinutes(3)).until(() -> thisServer().equals(epoch(sku)));
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(6);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(4);
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(6);

        // and sells what is left, not the four units alice bought
        GlobalTransaction tooMany = begin();
        ResponseEntity<JsonNode> short8 = inventory.reserve(tooMany.getXid(), "order-" + UUID.randomUUID(), "carol",
                List.of(new InventoryClient.Item(sku, 8)));
        tooMany.rollback();
        RootContext.unbind();
        assertThat(short8.getStatusCode().value()).isEqualTo(409);
        assertThat(short8.getBody().path("available").asInt()).isEqualTo(6);
        GlobalTransaction rest = begin();
        assertThat(inventory.reserve(rest.getXid(), "order-" + UUID.randomUUID(), "carol",
                List.of(new InventoryClient.Item(sku, 6))).getStatusCode().value()).isEqualTo(201);
        rest.commit();
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 10);
        assertThat(inventory.stock(sku).at("/redis/sold").asLong()).isEqualTo(10);
    }

    @Test
    void reservationsWhoseSecondPhaseRedisLostAreClosedTheWayTheLedgerSays() throws Exception {
        String sku = inventory.skuWith(10, 5, 1);
        // alice's reservation is confirmed and bob's cancelled, then Redis loses both second phases
        GlobalTransaction confirmed = begin();
        String aliceReservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(confirmed.getXid(), aliceReservation, "alice",
                List.of(new InventoryClient.Item(sku, 3))).getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        GlobalTransaction cancelled = begin();
        String bobReservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(cancelled.getXid(), bobReservation, "bob",
                List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        String aliceFence = StockKeys.fence(sku, confirmed.getXid(), aliceReservation);
        String bobFence = StockKeys.fence(sku, cancelled.getXid(), bobReservation);
        Map<String, byte[]> afterTries = dump(sku, List.of(aliceFence, bobFence, StockKeys.buyer(sku, "alice"),
                StockKeys.buyer(sku, "bob")));

        GlobalTransactions.commit(confirmed);
        GlobalTransactions.rollback(cancelled);
        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerState(confirmed.getXid()).equals("CONFIRMED")
                && ledgerState(cancelled.getXid()).equals("CANCELLED"));
        restore(afterTries);
        staleEpoch(sku);
        assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isEqualTo(5);

        // a Try finds the SKU stale, which starts the rebuild
        GlobalTransaction refused = begin();
        assertThat(inventory.reserve(refused.getXid(), "order-" + UUID.randomUUID(), "carol",
                List.of(new InventoryClient.Item(sku, 1))).getStatusCode().value()).isEqualTo(503);
        refused.rollback();
        RootContext.unbind();

        await().atMost(Duration.ofMinutes(3)).until(() -> thisServer().equals(epoch(sku)));
        assertThat(redis.opsForHash().get(aliceFence, "state")).isEqualTo("CONFIRMED");
        assertThat(redis.opsForHash().get(bobFence, "state")).isEqualTo("CANCELLED");
        assertThat(redis.opsForSet().size(StockKeys.open(sku))).isZero();
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "bob"))).isEqualTo("0");
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "alice"))).isEqualTo("3");
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(7);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(3);
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(7);
    }

    /**
     * Redis lost the SKU altogether (a server that came back empty) while a reservation of it waited for its Confirm:
     * the coordinator's commit is a sale all the same. It is counted in MySQL before the coordinator hears that the
     * Confirm is done, and the SKU comes back from MySQL with it sold, so no other buyer can have that unit; a replay
     * of the Confirm sells nothing more.
     */
    @Test
    void aConfirmOfASkuRedisLostAltogetherIsSoldInMySqlAndTheSkuComesBackWithIt() throws Exception {
        String sku = inventory.skuWith(10, 5, 2);
        GlobalTransaction paid = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(paid.getXid(), reservation, "dora",
                List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerState(paid.getXid()).equals("TRIED"));
        // every key of the SKU's slot goes: stock, segments, fence records, buyers, events
        redis.delete(redis.keys(StockKeys.stock(sku) + "*"));
        assertThat(redis.hasKey(StockKeys.stock(sku))).isFalse();

        GlobalTransactions.commit(paid);

        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerState(paid.getXid()).equals("CONFIRMED"));
        assertThat(inventory.stock(sku).at("/mysql/sold").asLong()).isEqualTo(2);
        // the Confirm asked for the rebuild; the SKU comes back from MySQL, the sale counted
        await().atMost(Duration.ofMinutes(3)).until(() -> thisServer().equals(epoch(sku)));
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(8);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(2);
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(8);
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, paid.getXid(), reservation), "state"))
                .isEqualTo("CONFIRMED");
    }

    /**
     * Redis lost the SKU altogether while a reservation of it waited for its Cancel: the rollback ends the
     * reservation's ledger row (CANCELLED), and MySQL's stock is untouched (Redis held the units).
     */
    @Test
    void aCancelOfASkuRedisLostAltogetherEndsItsLedgerRow() throws Exception {
        String sku = inventory.skuWith(10, 5, 2);
        GlobalTransaction abandoned = begin();
        String reservation = "order-" + UUID.randomUUID();
        assertThat(inventory.reserve(abandoned.getXid(), reservation, "gil",
                List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value()).isEqualTo(201);
        RootContext.unbind();
        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerState(abandoned.getXid()).equals("TRIED"));
        redis.delete(redis.keys(StockKeys.stock(sku) + "*"));

        GlobalTransactions.rollback(abandoned);

        await().atMost(Duration.ofSeconds(30)).until(() -> ledgerState(abandoned.getXid()).equals("CANCELLED"));
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/mysql/sold").asLong()).isZero();
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(10);
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state) FROM stock_ledger WHERE xid = ?",
                String.class, abandoned.getXid())).containsExactly("REDIS CANCELLED");
    }

    /**
     * Redis restarts when no buyer asks for the SKU any more (the end of a sale): nothing meets the SKU stale, yet it
     * is rebuilt, because the service notices the new run id itself ({@link RedisRestartWatch}).
     */
    @Test
    void aRedisRestartThatNoTryMeetsIsNoticedAndItsSkusAreRebuilt() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        String before = thisServer();
        assertThat(epoch(sku)).isEqualTo(before);
        // nothing else pending (a round also takes every other stale SKU it finds)
        await().atMost(Duration.ofMinutes(2)).until(rebuilds::idle);

        assertThat(io.github.flashstock.devstack.junit.SharedStack.kill(io.github.flashstock.devstack.Component.REDIS))
                .hasSize(1);
        io.github.flashstock.devstack.junit.SharedStack.restart(io.github.flashstock.devstack.Component.REDIS);
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> !thisServer().equals(before));
        assertThat(epoch(sku)).as("stale after the restart").isEqualTo(before);

        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> thisServer().equals(epoch(sku)));
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(10);
        // the rest of the round (every SKU of the tests before, all stale now) before the next test
        await().atMost(Duration.ofMinutes(2)).until(rebuilds::idle);
    }

    @Test
    void oneStaleSkuFoundBringsBackEveryStaleSkuOfThatServerInTheSameRound() throws Exception {
        String asked = inventory.skuWith(5, null, 1);
        String notAsked = inventory.skuWith(5, null, 2);
        staleEpoch(asked);
        staleEpoch(notAsked);

        GlobalTransaction refused = begin();
        assertThat(inventory.reserve(refused.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(asked, 1))).getStatusCode().value()).isEqualTo(503);
        refused.rollback();
        RootContext.unbind();

        // no Try ever met the second SKU: it was found by the scan that follows the first
        await().atMost(Duration.ofMinutes(3)).until(() -> thisServer().equals(epoch(asked))
                && thisServer().equals(epoch(notAsked)));
        assertThat(inventory.stock(notAsked).at("/redis/available").asLong()).isEqualTo(5);
        assertThat(inventory.stock(notAsked).at("/redis/segments").asInt()).isEqualTo(2);
    }

    private static GlobalTransaction begin() throws Exception {
        return GlobalTransactions.begin("inventory-it");
    }

    private String ledgerState(String xid) {
        List<String> states = jdbc.queryForList("SELECT state FROM stock_ledger WHERE xid = ?", String.class, xid);
        return states.isEmpty() ? "" : states.get(0);
    }

    /** The SKU's stock hash, segment 0, open set and the given keys as they are now (null: absent). */
    private Map<String, byte[]> dump(String sku, List<String> more) {
        Map<String, byte[]> keys = new HashMap<>();
        for (String key : concat(List.of(StockKeys.stock(sku), StockKeys.segment(sku, 0), StockKeys.open(sku)), more)) {
            keys.put(key, redis.dump(key));
        }
        return keys;
    }

    private void restore(Map<String, byte[]> dumped) {
        dumped.forEach((key, value) -> {
            if (value == null) {
                redis.delete(key);
            } else {
                redis.restore(key, value, 0, TimeUnit.MILLISECONDS, true);
            }
        });
    }

    private void staleEpoch(String sku) {
        redis.opsForHash().put(StockKeys.stock(sku), "epoch", "0123456789abcdef0123456789abcdef01234567");
    }

    private String epoch(String sku) {
        return String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch"));
    }

    private String thisServer() {
        Properties info = redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info("server"));
        return info.getProperty("run_id");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
