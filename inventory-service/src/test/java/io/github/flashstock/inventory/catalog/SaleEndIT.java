package io.github.flashstock.inventory.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.mysqlstore.MysqlReservations;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.SaleEndScript;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The end of a sale ({@code POST /admin/skus/{skuId}/close}): nothing more is sold of the SKU in either store, the
 * reservations open at the close end as their transactions decide, and then Redis holds no key of the SKU at all,
 * so that sales that open and close leave Redis's memory as they found it.
 */
class SaleEndIT extends InventoryITSupport {

    private static final String SALE_CLOSED = "urn:flashstock:problem:sale-closed";

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    SaleEnd saleEnd;

    @Autowired
    SaleEndScript scripts;

    @Autowired
    StockHandover handover;

    @Autowired
    MysqlReservations mysqlStore;

    private ResponseEntity<JsonNode> close(String sku) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        return http.exchange("/admin/skus/" + sku + "/close", HttpMethod.POST, new HttpEntity<>(headers),
                JsonNode.class);
    }

    private ResponseEntity<JsonNode> restock(String sku, int units) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange("/admin/skus/" + sku + "/restock", HttpMethod.POST,
                new HttpEntity<>("{\"quantity\": " + units + "}", headers), JsonNode.class);
    }

    private ResponseEntity<JsonNode> reserve(GlobalTransaction tx, String sku, String buyer, int units) {
        return new InventoryClient(http).reserve(tx.getXid(), "order-" + UUID.randomUUID(), buyer,
                List.of(new InventoryClient.Item(sku, units)));
    }

    private long sold(String sku) {
        return jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku);
    }

    /** Sweeps until Redis has let go of the SKU (the ledger learns of the last phases from the stock events). */
    private void sweptOnceOver(String sku) {
        await("SKU " + sku + " swept from Redis (swept_at set)").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    saleEnd.sweep(sku);
                    return jdbc.queryForObject("SELECT swept_at IS NOT NULL FROM sku_stock WHERE sku_id = ?",
                            Boolean.class, sku);
                });
    }

    @Test
    void aClosedSaleSellsNothingMoreItsOpenReservationsEndAndThenRedisHoldsNoKeyOfIt() throws Exception {
        String sku = new InventoryClient(http).skuWith(10, 2, 2);
        GlobalTransaction ada = GlobalTransactions.beginUnbound("sale-end-it");
        assertThat(reserve(ada, sku, "ada", 2).getStatusCode().value()).isEqualTo(201);
        GlobalTransactions.commit(ada);
        GlobalTransaction bob = GlobalTransactions.beginUnbound("sale-end-it");
        assertThat(reserve(bob, sku, "bob", 1).getStatusCode().value()).isEqualTo(201);

        ResponseEntity<JsonNode> closed = close(sku);

        assertThat(closed.getStatusCode().value()).as("%s", closed.getBody()).isEqualTo(200);
        assertThat(closed.getBody().path("closedAt").asText()).isNotBlank();
        assertThat(closed.getBody().path("openInRedis").asLong()).as("bob's reservation").isEqualTo(1);
        assertThat(closed.getBody().path("reservedInRedis").asLong()).isEqualTo(1);
        assertThat(closed.getBody().path("sweptAt").isNull()).as("bob's reservation is still open").isTrue();
        assertThat(scripts.keysOf(sku)).as("nothing swept while a reservation is open").isNotEmpty();

        // a new Try is refused, for good; a caller that commits all the same gets nothing
        GlobalTransaction cy = GlobalTransactions.beginUnbound("sale-end-it");
        ResponseEntity<JsonNode> refused = reserve(cy, sku, "cy", 1);
        assertThat(refused.getStatusCode().value()).isEqualTo(409);
        assertThat(refused.getBody().path("type").asText()).isEqualTo(SALE_CLOSED);
        assertThat(refused.getBody().path("skuId").asText()).isEqualTo(sku);
        GlobalTransactions.commit(cy);
        assertThat(restock(sku, 5).getBody().path("type").asText()).as("a closed SKU takes no more stock")
                .isEqualTo(SALE_CLOSED);

        // the open reservation ends as its transaction decides
        GlobalTransactions.commit(bob);
        sweptOnceOver(sku);

        assertThat(scripts.keysOf(sku)).as("every key of the SKU is gone from Redis").isEmpty();
        assertThat(sold(sku)).as("ada's 2 and bob's 1; nothing for cy").isEqualTo(3);
        assertThat(jdbc.queryForList("SELECT CONCAT(user_id, ' ', state, ' ', quantity) FROM stock_ledger"
                        + " WHERE sku_id = ? ORDER BY user_id", String.class, sku))
                .containsExactly("ada CONFIRMED 2", "bob CONFIRMED 1", "cy REFUSED 1");

        // after the sweep: still refused, recorded in MySQL, and nothing comes back into Redis
        GlobalTransaction late = GlobalTransactions.beginUnbound("sale-end-it");
        ResponseEntity<JsonNode> again = reserve(late, sku, "cy", 1);
        assertThat(again.getStatusCode().value()).isEqualTo(409);
        assertThat(again.getBody().path("type").asText()).isEqualTo(SALE_CLOSED);
        GlobalTransactions.commit(late);
        assertThat(sold(sku)).as("a commit after the refusal sells nothing").isEqualTo(3);
        assertThat(scripts.keysOf(sku)).as("no key of the swept SKU again").isEmpty();
        ResponseEntity<JsonNode> repeat = close(sku);
        assertThat(repeat.getStatusCode().value()).isEqualTo(200);
        assertThat(repeat.getBody().path("sweptAt").asText()).isNotBlank();
        assertThat(jdbc.queryForList("SELECT actor FROM repair_audit WHERE sku_id = ? AND action = 'CLOSE_SKU'",
                String.class, sku)).hasSize(2);
        assertThat(close("sku-" + UUID.randomUUID()).getStatusCode().value()).isEqualTo(404);
    }

    @Test
    void theMySqlStoreTakesNothingOfAClosedSkuAndItsAllotmentStaysAsItWas() {
        String sku = new InventoryClient(http).skuWith(10, null, 1);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 6, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        assertThat(close(sku).getStatusCode().value()).isEqualTo(200);

        // the MySQL store alone, as when Redis cannot be asked: its one-trip way and its general way both refuse
        TryOutcome one = mysqlStore.reserve(new TryRequest("xid-" + UUID.randomUUID() + ":1:1", "order-1", 1, "ada",
                List.of(new StockLine(sku, 1))), false);
        TryOutcome limited = mysqlStore.reserve(new TryRequest("xid-" + UUID.randomUUID() + ":1:1", "order-2", 1,
                "bob", List.of(new StockLine(sku, 1))), false, true);

        assertThat(one).isEqualTo(new TryOutcome.SaleClosed(sku));
        assertThat(limited).isEqualTo(new TryOutcome.SaleClosed(sku));
        assertThat(jdbc.queryForMap("SELECT allotment_available, reserved FROM sku_stock WHERE sku_id = ?", sku))
                .containsEntry("allotment_available", 6L).containsEntry("reserved", 0L);
    }

    @Test
    void aClosedSkuThatRedisMustRebuildStaysClosedThroughTheRebuild() throws Exception {
        String sku = new InventoryClient(http).skuWith(10, 2, 1);
        GlobalTransaction ada = GlobalTransactions.beginUnbound("sale-end-it");
        assertThat(reserve(ada, sku, "ada", 1).getStatusCode().value()).isEqualTo(201);
        assertThat(close(sku).getStatusCode().value()).isEqualTo(200);
        // Redis lost the SKU's stock hash: the next Try finds it unknown in Redis, closed in MySQL
        redis.delete(StockKeys.stock(sku));

        GlobalTransaction bob = GlobalTransactions.beginUnbound("sale-end-it");
        ResponseEntity<JsonNode> refused = reserve(bob, sku, "bob", 1);
        assertThat(refused.getBody().path("type").asText()).as("closed, not 'being rebuilt'").isEqualTo(SALE_CLOSED);
        GlobalTransactions.rollback(bob);
        GlobalTransactions.commit(ada);

        // rebuilt for ada's reservation, closed all the same; then swept (a rebuild worker that looked at the SKU
        // as it was swept may hold its lock key a moment longer, and must not bring the SKU back)
        sweptOnceOver(sku);
        await("no key of the swept SKU").atMost(Duration.ofSeconds(10)).until(() -> scripts.keysOf(sku).isEmpty());
        assertThat(jdbc.queryForObject("SELECT swept_at IS NOT NULL FROM sku_stock WHERE sku_id = ?", Boolean.class,
                sku)).isTrue();
        assertThat(sold(sku)).isEqualTo(1);
    }

    /**
     * A close in the middle of a crowd of Tries, half of them falling through to the MySQL store's allotment: no Try
     * that began after the close answered reserves anything, every answer is a 201 or a 409, and the units sold are
     * exactly those of the committed orders, in both stores.
     */
    @Test
    void aCloseInTheMiddleOfACrowdLetsNoLaterTryReserveAndLosesNoUnit() throws Exception {
        String sku = new InventoryClient(http).skuWith(60, null, 2);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 40, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        record Answer(long startedAt, int status, String type, int units) {
        }
        List<Answer> answers = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicLong committed = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService crowd = java.util.concurrent.Executors.newFixedThreadPool(16);
        List<java.util.concurrent.Future<?>> buyers = new ArrayList<>();
        for (int b = 0; b < 16; b++) {
            String buyer = "crowd-" + b;
            buyers.add(crowd.submit(() -> {
                for (int i = 0; i < 6; i++) {
                    long started = System.nanoTime();
                    GlobalTransaction tx = GlobalTransactions.beginUnbound("sale-end-it");
                    ResponseEntity<JsonNode> answer = reserve(tx, sku, buyer, 1);
                    int status = answer.getStatusCode().value();
                    if (status == 201) {
                        GlobalTransactions.commit(tx);
                        committed.incrementAndGet();
                    } else {
                        GlobalTransactions.rollback(tx);
                    }
                    answers.add(new Answer(started, status, answer.getBody().path("type").asText(), 1));
                }
                return null;
            }));
        }
        await("30 answers before the close").atMost(Duration.ofSeconds(60)).until(() -> answers.size() >= 30);
        ResponseEntity<JsonNode> closed = close(sku);
        long closedAt = System.nanoTime();
        for (java.util.concurrent.Future<?> buyer : buyers) {
            buyer.get(2, java.util.concurrent.TimeUnit.MINUTES);
        }
        crowd.shutdown();

        assertThat(closed.getStatusCode().value()).isEqualTo(200);
        assertThat(answers).hasSize(96).allSatisfy(a -> assertThat(a.status()).as("%s", a).isIn(201, 409));
        assertThat(answers).filteredOn(a -> a.startedAt() > closedAt).isNotEmpty()
                .allSatisfy(a -> assertThat(a.type()).as("a Try begun after the close").isEqualTo(SALE_CLOSED));
        assertThat(sold(sku)).as("units of the committed orders").isEqualTo(committed.get());
        assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = ?"
                + " AND state = 'CONFIRMED'", Long.class, sku)).isEqualTo(committed.get());
        assertThat(jdbc.queryForObject("SELECT reserved FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE sku_id = ? AND store = 'MYSQL'"
                + " AND state = 'CONFIRMED'", Long.class, sku)).as("the allotment sold after Redis's 20 units").isPositive();
        sweptOnceOver(sku);
        assertThat(scripts.keysOf(sku)).isEmpty();
        assertThat(sold(sku)).isEqualTo(committed.get());
    }

    /**
     * Sales that open, sell and close, one after the other: each leaves no key in Redis, and Redis's memory stays
     * flat. {@code -Dsale-end.rounds=N} runs N sales (8 here; {@code bin/redis-budget} measures the bytes a key costs).
     */
    @Test
    void salesThatOpenAndCloseLeaveRedisMemoryFlat() throws Exception {
        int rounds = Integer.getInteger("sale-end.rounds", 8);
        String run = "mem-" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> used = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            String sku = run + "-" + round;
            HttpHeaders headers = new HttpHeaders();
            headers.setBearerAuth(ADMIN_TOKEN);
            headers.setContentType(MediaType.APPLICATION_JSON);
            assertThat(http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(
                            "{\"stocked\": 20, \"perUserLimit\": 2, \"segments\": 2}", headers), JsonNode.class)
                    .getStatusCode().value()).isEqualTo(201);
            for (int buyer = 0; buyer < 10; buyer++) {
                GlobalTransaction tx = GlobalTransactions.beginUnbound("sale-end-it");
                int status = reserve(tx, sku, "buyer-" + round + "-" + buyer, 1 + buyer % 2).getStatusCode().value();
                if (status == 201 && buyer % 4 != 3) {
                    GlobalTransactions.commit(tx);
                } else {
                    GlobalTransactions.rollback(tx);
                }
            }
            assertThat(close(sku).getStatusCode().value()).isEqualTo(200);
            sweptOnceOver(sku);
            assertThat(scripts.keysOf(sku)).as("round %d leaves no key of its SKU", round).isEmpty();
            used.add(usedMemory());
        }
        System.out.println("Redis used_memory after each of " + rounds + " sales that opened and closed: " + used);
        // the allocator and other traffic move used_memory a little; what a sale left behind would add up
        long first = used.get(Math.min(2, used.size() - 1));
        assertThat(used.get(used.size() - 1)).as("used_memory after the last sale, against the third's: %s", used)
                .isLessThan(first + 512 * 1024);
    }

    private long usedMemory() {
        Properties info = redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info("memory"));
        return Long.parseLong(info.getProperty("used_memory"));
    }
}
