package io.github.flashstock.inventory.allotment;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Units moving between a SKU's Redis store and its allotment, on the real Redis and MariaDB: through the admin
 * API, replayed, refused, cut short at each step and completed, raced by rebuilds of the SKU, and many at once.
 * After each, the two stores add up to what was stocked and agree on whose units are whose.
 */
class StockHandoverIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StockHandover handover;

    @Autowired
    StockHandoverMapper handovers;

    @Autowired
    HandoverScript handoverScript;

    @Autowired
    StockCatalog catalog;

    @Autowired
    Reconciler reconciler;

    InventoryClient inventory;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
    }

    @Test
    void unitsMoveToTheReserveAndBackOncePerOperationAndEveryMoveIsRecorded() {
        String sku = inventory.skuWith(100, null, 4);

        ResponseEntity<JsonNode> out = handOver(sku, "TO_MYSQL", 30, "op-out-" + sku);
        ResponseEntity<JsonNode> replay = handOver(sku, "TO_MYSQL", 30, "op-out-" + sku);

        assertThat(out.getStatusCode().value()).as("%s", out.getBody()).isEqualTo(200);
        assertThat(out.getBody().path("moved").asLong()).isEqualTo(30);
        assertThat(out.getBody().path("state").asText()).isEqualTo("DONE");
        assertThat(replay.getStatusCode().value()).isEqualTo(200);
        assertThat(replay.getBody().path("moved").asLong()).isEqualTo(30);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/stocked").asLong()).isEqualTo(70);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(70);
        long segments = 0;
        for (JsonNode segment : stock.at("/redis/segmentDetails")) {
            assertThat(segment.path("available").asLong()).isBetween(17L, 18L);
            segments += segment.path("available").asLong();
        }
        assertThat(segments).isEqualTo(70);
        assertThat(stock.at("/mysql/available").asLong()).isEqualTo(100);
        assertThat(stock.at("/mysql/allotment/available").asLong()).isEqualTo(30);
        assertThat(stock.at("/mysql/allotment/incoming").asLong()).isZero();

        // the same key for another handover moves nothing
        ResponseEntity<JsonNode> other = handOver(sku, "TO_MYSQL", 31, "op-out-" + sku);
        assertThat(other.getStatusCode().value()).isEqualTo(409);
        assertThat(other.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:operation-id-taken");

        // back: 10 units return to Redis
        ResponseEntity<JsonNode> in = handOver(sku, "TO_REDIS", 10, "op-in-" + sku);
        assertThat(in.getStatusCode().value()).as("%s", in.getBody()).isEqualTo(200);
        stock = inventory.stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(80);
        assertThat(stock.at("/mysql/allotment/available").asLong()).isEqualTo(20);

        // the audit trail, newest first
        ResponseEntity<JsonNode> history = history(sku, "");
        assertThat(history.getBody().path("total").asLong()).isEqualTo(2);
        assertThat(history.getBody().path("items")).hasSize(2);
        assertThat(history.getBody().path("items").get(0).path("direction").asText()).isEqualTo("TO_REDIS");
        assertThat(history.getBody().path("items").get(1).path("reason").asText()).as("the admin the token names").isEqualTo("operator admin");
        assertAgree(sku, 100);
    }

    @Test
    void theAuditTrailComesAPageAtATimeAndABadPageIsRefused() {
        String sku = inventory.skuWith(100, null, 1);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String key = "op-page-" + i + "-" + sku;
            assertThat(handOver(sku, "TO_MYSQL", 1, key).getStatusCode().value()).isEqualTo(200);
            keys.add(key);
        }

        List<String> seen = new ArrayList<>();
        for (int page = 1; page <= 3; page++) {
            JsonNode listing = history(sku, "?page=" + page + "&size=2").getBody();
            assertThat(listing.path("page").asLong()).isEqualTo(page);
            assertThat(listing.path("size").asLong()).isEqualTo(2);
            assertThat(listing.path("total").asLong()).isEqualTo(5);
            assertThat(listing.path("items")).hasSize(page < 3 ? 2 : 1);
            listing.path("items").forEach(item -> seen.add(item.path("operationId").asText()));
        }
        assertThat(seen).as("every handover once, across the pages").containsExactlyInAnyOrderElementsOf(keys);
        JsonNode past = history(sku, "?page=4&size=2").getBody();
        assertThat(past.path("items")).isEmpty();
        assertThat(past.path("total").asLong()).isEqualTo(5);
        assertThat(history(sku, "?size=500").getBody().path("items")).hasSize(5);

        for (String bad : List.of("?page=0", "?size=0", "?size=501", "?page=abc", "?size=2.5", "?limit=10")) {
            ResponseEntity<JsonNode> refused = history(sku, bad);
            assertThat(refused.getStatusCode().value()).as(bad).isEqualTo(400);
            assertThat(refused.getBody().path("type").asText()).as(bad)
                    .isEqualTo("urn:flashstock:problem:invalid-request");
        }
        assertThat(handovers.lastOf(sku, 10)).hasSize(5);
        assertAgree(sku, 100);
    }

    @Test
    void aStoreThatLacksTheUnitsRefusesAndNothingMoves() {
        String sku = inventory.skuWith(10, null, 1);

        ResponseEntity<JsonNode> tooMany = handOver(sku, "TO_MYSQL", 11, "op-" + UUID.randomUUID());
        ResponseEntity<JsonNode> emptyReserve = handOver(sku, "TO_REDIS", 1, "op-" + UUID.randomUUID());
        ResponseEntity<JsonNode> unknown = handOver("sku-" + UUID.randomUUID(), "TO_MYSQL", 1, "op-" + UUID.randomUUID());
        ResponseEntity<JsonNode> badDirection = handOver(sku, "SIDEWAYS", 1, "op-" + UUID.randomUUID());
        ResponseEntity<JsonNode> zero = handOver(sku, "TO_MYSQL", 0, "op-" + UUID.randomUUID());

        assertThat(tooMany.getStatusCode().value()).isEqualTo(409);
        assertThat(tooMany.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:handover-refused");
        assertThat(emptyReserve.getStatusCode().value()).isEqualTo(409);
        assertThat(unknown.getStatusCode().value()).isEqualTo(404);
        assertThat(badDirection.getStatusCode().value()).isEqualTo(400);
        assertThat(zero.getStatusCode().value()).isEqualTo(400);
        assertThat(handovers.lastOf(sku, 10)).isEmpty();
        assertAgree(sku, 10);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(10);
    }

    @Test
    void aHandoverCutShortAfterEachStepIsCompletedOnceAndARebuildInBetweenCountsNothingTwice() {
        // to MySQL, cut after Redis gave the units up: a reload runs, then the operation completes
        String sku = inventory.skuWith(50, null, 2);
        String out = "op-" + UUID.randomUUID();
        beginByHand(sku, out, "TO_MYSQL", 20);
        assertThat(handoverScript.run(sku, HandoverScript.Direction.OUT, 20, out, Duration.ofHours(1)))
                .isInstanceOf(HandoverScript.Outcome.Moved.class);
        assertThat(catalog.rebuild(sku)).isInstanceOf(StockCatalog.Rebuild.Done.class);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(30);
        handover.completeAll(sku);
        assertThat(handovers.find(out).moved()).isEqualTo(20);
        assertAgree(sku, 50);
        assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(20);

        // to Redis, cut after MySQL released the units: a reload runs (Redis gets them), then it completes: once
        String in = "op-" + UUID.randomUUID();
        beginByHand(sku, in, "TO_REDIS", 5);
        assertThat(catalog.rebuild(sku)).isInstanceOf(StockCatalog.Rebuild.Done.class);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(35);
        handover.completeAll(sku);
        assertThat(handovers.find(in).state()).isEqualTo("DONE");
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(35);
        assertAgree(sku, 50);

        // to MySQL, cut before Redis's step, and Redis restarted meanwhile (the SKU is stale): the recovery
        // rebuilds it with the units left out, and the completion moves them to the allotment without taking more
        String stale = "op-" + UUID.randomUUID();
        beginByHand(sku, stale, "TO_MYSQL", 5);
        redis.opsForHash().put(StockKeys.stock(sku), "epoch", "0123456789abcdef0123456789abcdef01234567");
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 5, stale, "test"))
                .isInstanceOf(StockHandover.Result.Pending.class);
        awaitRecovered(sku);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(30);
        handover.completeAll(sku);
        assertThat(handovers.find(stale).moved()).isEqualTo(5);
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(30);
        assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(20);
        assertAgree(sku, 50);
    }

    /**
     * Found by LimitHistoryIT (seed 1011): the rebalancer handed an allotment back to Redis while buyers ordered, and
     * orders that came between the handover's MySQL step and its Redis step were told the SKU was sold out. Units on
     * their way are not gone: such a Try is answered "not now", and sells once they arrive.
     */
    @Test
    void aTryWhileUnitsMoveIntoRedisIsToldNotNowAndSellsOnceTheyArrive() throws Exception {
        String sku = inventory.skuWith(4, null, 1);
        assertThat(handOver(sku, "TO_MYSQL", 4, "op-" + UUID.randomUUID()).getStatusCode().value()).isEqualTo(200);
        // the handover back stops between its steps: Redis's waits for a rebuild's lock (handover.lua, REBUILDING)
        String lock = StockKeys.stock(sku) + ":reload";
        redis.opsForValue().set(lock, "held by this test", Duration.ofMinutes(1));
        String back = "op-" + UUID.randomUUID();
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_REDIS, 4, back, "test"))
                .isInstanceOf(StockHandover.Result.Pending.class);
        JsonNode between = inventory.stock(sku);
        assertThat(between.at("/redis/available").asLong() + between.at("/mysql/allotment/available").asLong())
                .as("the units are in neither store: %s", between).isZero();

        ResponseEntity<JsonNode> meanwhile = order(sku, 2, false);

        assertThat(meanwhile.getStatusCode().value()).as("%s", meanwhile.getBody()).isEqualTo(503);
        assertThat(meanwhile.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:mysql-store-busy");
        assertThat(meanwhile.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(meanwhile.getBody().path("detail").asText()).contains("on their way");

        // the units arrive: the mark goes with them, and the same order sells
        redis.delete(lock);
        handover.completeAll(sku);
        assertThat(redis.opsForHash().entries(StockKeys.stock(sku) + ":moving")).isEmpty();
        ResponseEntity<JsonNode> after = order(sku, 2, true);
        assertThat(after.getStatusCode().value()).as("%s", after.getBody()).isEqualTo(201);
        assertThat(order(sku, 3, false).getBody().path("type").asText())
                .as("sold out is said again once no unit is on its way")
                .isEqualTo("urn:flashstock:problem:insufficient-stock");
    }

    /** One Try of {@code units} of the SKU in a global transaction, committed if asked and reserved, else rolled back. */
    private ResponseEntity<JsonNode> order(String sku, int units, boolean commit) throws Exception {
        org.apache.seata.tm.api.GlobalTransaction tx = GlobalTransactions.beginUnbound("stock-handover-it");
        ResponseEntity<JsonNode> tried = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "kim",
                List.of(new InventoryClient.Item(sku, units)));
        if (commit && tried.getStatusCode().value() == 201) {
            GlobalTransactions.commit(tx);
        } else {
            GlobalTransactions.rollback(tx);
        }
        return tried;
    }

    @Test
    void manyHandoversBothWaysRacingReloadsLoseAndDoubleNothing() throws Exception {
        String sku = inventory.skuWith(1_000, null, 4);
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                boolean toMysql = t % 2 == 0;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        long units = ThreadLocalRandom.current().nextLong(1, 40);
                        handover.handOver(sku, toMysql ? StockHandover.Direction.TO_MYSQL
                                : StockHandover.Direction.TO_REDIS, units, "op-" + UUID.randomUUID(), "test");
                    }
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    catalog.rebuild(sku);
                }
                return null;
            }));
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        handover.completeAll(sku);

        assertThat(handovers.pendingOf(sku)).isEmpty();
        long movedOut = sumMoved(sku, "TO_MYSQL");
        long movedIn = sumMoved(sku, "TO_REDIS");
        assertThat(movedOut).isPositive();
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/mysql/allotment/available").asLong()).isEqualTo(movedOut - movedIn);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(1_000 - (movedOut - movedIn));
        assertAgree(sku, 1_000);
    }

    /** MySQL's step of a handover, as a request that died right after it would leave it. */
    private void beginByHand(String sku, String operation, String direction, long units) {
        assertThat(handovers.begin(operation, sku, direction, units, "test")).isEqualTo(1);
        assertThat(direction.equals("TO_MYSQL") ? handovers.expect(sku, units) : handovers.release(sku, units))
                .isEqualTo(1);
    }

    private long sumMoved(String sku, String direction) {
        return handovers.lastOf(sku, 500).stream().filter(h -> h.direction().equals(direction))
                .mapToLong(HandoverRow::moved).sum();
    }

    private void awaitRecovered(String sku) {
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(3)).until(() -> {
            handover.completeAll(sku);
            return handovers.pendingOf(sku).isEmpty();
        });
    }

    /**
     * The two stores account for every unit ({@code redis stocked + reserve + reserve sold + MySQL-store reserved ==
     * stocked}), none is negative, and the reconciler finds nothing between them.
     */
    private void assertAgree(String sku, long stocked) {
        JsonNode stock = inventory.stock(sku);
        long redisStocked = stock.at("/redis/stocked").asLong();
        long reserve = stock.at("/mysql/allotment/available").asLong();
        long incoming = stock.at("/mysql/allotment/incoming").asLong();
        long allotmentSold = stock.at("/mysql/allotment/sold").asLong();
        long reserved = stock.at("/mysql/reserved").asLong();
        assertThat(stock.at("/mysql/stocked").asLong()).isEqualTo(stocked);
        assertThat(redisStocked + reserve + incoming + allotmentSold + reserved).as("%s", stock).isEqualTo(stocked);
        assertThat(stock.at("/redis/available").asLong()).isNotNegative();
        assertThat(reserve).isNotNegative();
        assertThat(reconciler.check(sku)).as("%s", stock).isEmpty();
    }

    private ResponseEntity<JsonNode> history(String sku, String query) {
        return http.exchange("/admin/skus/" + sku + "/handovers" + query, HttpMethod.GET,
                new HttpEntity<>(adminHeaders()), JsonNode.class);
    }

    private ResponseEntity<JsonNode> handOver(String sku, String direction, long units, String key) {
        HttpHeaders headers = adminHeaders();
        headers.set("Idempotency-Key", key);
        return http.exchange("/admin/skus/" + sku + "/handovers", HttpMethod.POST,
                new HttpEntity<>(Map.of("direction", direction, "units", units), headers), JsonNode.class);
    }

    private static HttpHeaders adminHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        return headers;
    }
}
