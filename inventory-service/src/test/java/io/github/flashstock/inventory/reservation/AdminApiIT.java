package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.stock.RestockScript;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

class AdminApiIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StringRedisTemplate redis;

    private ResponseEntity<JsonNode> admin(HttpMethod method, String path, Object body, String token) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        if (token != null) {
            headers.setBearerAuth(token);
        }
        return http.exchange(path, method, new HttpEntity<>(body, headers), JsonNode.class);
    }

    @Test
    void refusesAdminCallsWithoutTheTokenAndChangesNothing() {
        String sku = "sku-" + UUID.randomUUID();

        ResponseEntity<JsonNode> none = admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 5), null);
        ResponseEntity<JsonNode> wrong = admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 5), "nope");

        assertThat(none.getStatusCode().value()).isEqualTo(401);
        assertThat(wrong.getStatusCode().value()).isEqualTo(401);
        assertThat(none.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:admin-token-required");
        assertThat(new InventoryClient(http).stockAnswer(sku).getStatusCode().value()).isEqualTo(404);
    }

    @Test
    void showsTheStockViewToTheAdminOnly() {
        String sku = new InventoryClient(http).skuWith(10, null, 1);

        assertThat(admin(HttpMethod.GET, "/skus/" + sku + "/stock", null, null).getStatusCode().value()).isEqualTo(401);
        assertThat(admin(HttpMethod.GET, "/skus/" + sku + "/stock", null, "nope").getStatusCode().value()).isEqualTo(401);
        assertThat(new InventoryClient(http).stockAnswer(sku).getStatusCode().value()).isEqualTo(200);
        assertThat(http.getForEntity("/skus/" + sku + "/available", JsonNode.class).getStatusCode().value())
                .as("what a buyer may ask").isEqualTo(200);
    }

    @Test
    void createsASkuOnceAndRestocksIt() {
        String sku = "sku-" + UUID.randomUUID();

        assertThat(admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 500, "perUserLimit", 5, "segments", 4),
                ADMIN_TOKEN).getStatusCode().value()).isEqualTo(201);
        ResponseEntity<JsonNode> again = admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 1), ADMIN_TOKEN);
        assertThat(again.getStatusCode().value()).isEqualTo(409);
        assertThat(again.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:sku-exists");

        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("Idempotency-Key", "restock-" + sku);
        ResponseEntity<JsonNode> restocked = http.exchange("/admin/skus/" + sku + "/restock", HttpMethod.POST,
                new HttpEntity<>(Map.of("quantity", 100), headers), JsonNode.class);
        assertThat(restocked.getStatusCode().value()).isEqualTo(200);

        JsonNode stock = new InventoryClient(http).stock(sku);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(600);
        assertThat(stock.at("/redis/stocked").asLong()).isEqualTo(600);
        assertThat(stock.at("/redis/segments").asInt()).isEqualTo(4);
        assertThat(stock.at("/redis/perUserLimit").asInt()).isEqualTo(5);
        assertThat(stock.at("/mysql/stocked").asLong()).isEqualTo(600);
        assertThat(stock.at("/mysql/perUserLimit").asInt()).isEqualTo(5);
    }

    @Test
    void reloadsASkuFromMySqlAndRefusesAConcurrentReload() {
        String sku = new InventoryClient(http).skuWith(10, null, 1);
        redis.opsForHash().put("inv:{" + sku + "}", "available", "999");

        ResponseEntity<JsonNode> reloaded = admin(HttpMethod.POST, "/admin/skus/" + sku + "/reload", null, ADMIN_TOKEN);

        assertThat(reloaded.getStatusCode().value()).as("%s", reloaded.getBody()).isEqualTo(200);
        assertThat(reloaded.getBody().path("available").asLong()).isEqualTo(10);
        assertThat(reloaded.getBody().path("reserved").asLong()).isZero();
        assertThat(new InventoryClient(http).stock(sku).at("/redis/available").asLong()).isEqualTo(10);

        redis.opsForValue().set("inv:{" + sku + "}:reload", "another-instance", java.time.Duration.ofSeconds(30));
        ResponseEntity<JsonNode> busy = admin(HttpMethod.POST, "/admin/skus/" + sku + "/reload", null, ADMIN_TOKEN);
        assertThat(busy.getStatusCode().value()).isEqualTo(409);
        assertThat(busy.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:reload-in-progress");
        redis.delete("inv:{" + sku + "}:reload");

        assertThat(admin(HttpMethod.POST, "/admin/skus/no-such-" + UUID.randomUUID() + "/reload", null, ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(404);
    }

    @Autowired
    RestockScript restockScript;

    private ResponseEntity<JsonNode> restock(String sku, long units, String key) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("Idempotency-Key", key);
        return http.exchange("/admin/skus/" + sku + "/restock", HttpMethod.POST,
                new HttpEntity<>(Map.of("quantity", units), headers), JsonNode.class);
    }

    /** Redis's and MySQL's stocked and available, in that order. */
    private long[] stocked(String sku) {
        JsonNode s = new InventoryClient(http).stock(sku);
        return new long[] {s.at("/redis/stocked").asLong(), s.at("/mysql/stocked").asLong(),
                s.at("/redis/available").asLong(), s.at("/mysql/available").asLong()};
    }

    @Test
    void aRestockRetriedAfterAFailureBetweenItsTwoStepsIsAppliedOnceInEachStore() {
        String sku = new InventoryClient(http).skuWith(10, null, 2);

        // a restock that reached Redis and failed before MySQL (process killed, MySQL away)...
        restockScript.run(sku, 5, "op-a", Duration.ofDays(1));
        // ... and one that reached MySQL and failed before Redis
        jdbc.update("INSERT INTO restock_operation (sku_id, operation_id, units) VALUES (?, 'op-b', 7)", sku);
        jdbc.update("UPDATE sku_stock SET stocked = stocked + 7 WHERE sku_id = ?", sku);
        assertThat(stocked(sku)).containsExactly(15, 17, 15, 17);

        // When both are retried with their keys, then retried again
        assertThat(restock(sku, 5, "op-a").getStatusCode().value()).isEqualTo(200);
        assertThat(restock(sku, 7, "op-b").getStatusCode().value()).isEqualTo(200);
        long[] once = stocked(sku);
        assertThat(restock(sku, 5, "op-a").getBody().path("stocked").asLong()).isEqualTo(22);
        assertThat(restock(sku, 7, "op-b").getBody().path("stocked").asLong()).isEqualTo(22);

        // Then each store holds every unit exactly once
        assertThat(once).containsExactly(22, 22, 22, 22);
        assertThat(stocked(sku)).containsExactly(22, 22, 22, 22);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM restock_operation WHERE sku_id = ?", Long.class, sku))
                .isEqualTo(2);
    }

    @Test
    void aRestockOfASkuRedisHasNotLoadedLoadsItOnceWithTheUnits() {
        String sku = "sku-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked, sold) VALUES (?, 20, 5)", sku);

        assertThat(restock(sku, 3, "op-c").getStatusCode().value()).isEqualTo(200);
        assertThat(restock(sku, 3, "op-c").getStatusCode().value()).isEqualTo(200);

        assertThat(stocked(sku)).containsExactly(23, 23, 18, 18);
    }

    @Test
    void rejectsInvalidAdminInput() {
        String sku = "sku-" + UUID.randomUUID();
        assertThat(admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", -1), ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(400);
        assertThat(admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 5, "segments", 0), ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(400);
        assertThat(admin(HttpMethod.PUT, "/admin/skus/" + sku, Map.of("stocked", 5, "perUserLimit", 0), ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(400);
        assertThat(admin(HttpMethod.PUT, "/admin/skus/bad*sku", Map.of("stocked", 5), ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(400);
        assertThat(new InventoryClient(http).stockAnswer(sku).getStatusCode().value()).isEqualTo(404);
        // an Idempotency-Key neither store can keep: refused before anything is written
        String known = new InventoryClient(http).skuWith(5, null, 1);
        for (String key : List.of("x".repeat(129), "has space", "brace{d}")) {
            ResponseEntity<JsonNode> refused = restock(known, 1, key);
            assertThat(refused.getStatusCode().value()).as("key '%s'", key).isEqualTo(400);
            assertThat(refused.getBody().path("type").asText()).startsWith("urn:flashstock:problem:");
        }
        assertThat(stocked(known)).containsExactly(5, 5, 5, 5);
    }

    @Test
    void aSkuKnownOnlyToMySqlIsRefusedByTheFirstTryThenBuiltFromMySqlAndSold() {
        // Given a SKU in MySQL that Redis has never seen (e.g. Redis was emptied: Tries it acknowledged are gone)
        String sku = "sku-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked, sold) VALUES (?, 20, 5)", sku);
        assertThat(redis.hasKey("inv:{" + sku + "}")).isFalse();

        // When a reservation meets it, it is refused (nothing taken) while the SKU is built once the transactions
        // open now have ended; then a reservation succeeds
        assertThat(reserveOnce(sku, 2)).isEqualTo(503);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(3))
                .until(() -> redis.hasKey("inv:{" + sku + "}"));
        assertThat(reserveOnce(sku, 2)).isEqualTo(201);

        // Then it holds what MySQL had left
        JsonNode stock = new InventoryClient(http).stock(sku);
        assertThat(stock.at("/redis/available").asLong() + stock.at("/redis/reserved").asLong()).isEqualTo(15);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(5);
    }

    /** One reservation of {@code units} in a global transaction that is rolled back; the answer's status. */
    private int reserveOnce(String sku, int units) {
        try {
            org.apache.seata.tm.api.GlobalTransaction tx = GlobalTransactions.begin("warm-up-it");
            ResponseEntity<JsonNode> r = new InventoryClient(http).reserve(tx.getXid(), "order-" + UUID.randomUUID(),
                    "u1", java.util.List.of(new InventoryClient.Item(sku, units)));
            tx.rollback();
            return r.getStatusCode().value();
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            org.apache.seata.core.context.RootContext.unbind();
        }
    }
}
