package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * A SKU's per-user limit changed live ({@code PUT /admin/skus/{skuId}/limit}): what buyers hold stays theirs, and
 * their next Try is compared with the new limit, whether Redis or the allotment would sell it.
 */
class LiveLimitIT extends StoreSequenceITSupport {

    private ResponseEntity<JsonNode> setLimit(String sku, String body, String token) {
        HttpHeaders headers = new HttpHeaders();
        if (token != null) {
            headers.setBearerAuth(token);
        }
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange("/admin/skus/" + sku + "/limit", HttpMethod.PUT, new HttpEntity<>(body, headers),
                JsonNode.class);
    }

    private int order(String sku, String buyer, int units) throws Exception {
        GlobalTransaction tx = GlobalTransactions.beginUnbound("live-limit-it");
        ResponseEntity<JsonNode> tried = new InventoryClient(http).reserve(tx.getXid(), "order-" + UUID.randomUUID(),
                buyer, List.of(new InventoryClient.Item(sku, units)));
        if (tried.getStatusCode().value() == 201) {
            GlobalTransactions.commit(tx);
        } else {
            assertThat(tried.getBody().path("type").asText()).as("%s", tried.getBody())
                    .isEqualTo("urn:flashstock:problem:purchase-limit-exceeded");
            GlobalTransactions.rollback(tx);
        }
        return tried.getStatusCode().value();
    }

    private Integer limitInMysql(String sku) {
        return jdbc.queryForObject("SELECT per_user_limit FROM sku_stock WHERE sku_id = ?", Integer.class, sku);
    }

    private Object limitInRedis(String sku) {
        return redis.opsForHash().get(StockKeys.stock(sku), "limit");
    }

    @Test
    void aLimitChangedLiveAppliesToWhatBuyersHoldInEitherStore() throws Exception {
        String sku = new InventoryClient(http).skuWith(10, 2, 1);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 8, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        assertThat(order(sku, "ada", 2)).isEqualTo(201); // Redis's two units

        ResponseEntity<JsonNode> lowered = setLimit(sku, "{\"perUserLimit\": 1}", InventoryITSupport.ADMIN_TOKEN);

        assertThat(lowered.getStatusCode().value()).as("%s", lowered.getBody()).isEqualTo(200);
        assertThat(lowered.getBody().path("perUserLimit").asInt()).isEqualTo(1);
        assertThat(limitInMysql(sku)).isEqualTo(1);
        assertThat(limitInRedis(sku)).isEqualTo("1");
        assertThat(order(sku, "ada", 1)).as("ada holds 2, above the new limit").isEqualTo(409);
        assertThat(order(sku, "bob", 1)).as("the allotment sells bob his one").isEqualTo(201);
        assertThat(order(sku, "bob", 1)).isEqualTo(409);

        assertThat(setLimit(sku, "{\"perUserLimit\": 3}", InventoryITSupport.ADMIN_TOKEN).getStatusCode().value())
                .isEqualTo(200);
        assertThat(order(sku, "ada", 1)).as("one more under the raised limit, from the allotment").isEqualTo(201);
        assertThat(order(sku, "ada", 1)).isEqualTo(409);

        assertThat(setLimit(sku, "{\"perUserLimit\": null}", InventoryITSupport.ADMIN_TOKEN).getStatusCode().value())
                .isEqualTo(200);
        assertThat(limitInMysql(sku)).isNull();
        assertThat(limitInRedis(sku)).isEqualTo("0");
        assertThat(order(sku, "ada", 2)).as("no limit at all").isEqualTo(201);
        assertThat(jdbc.queryForList("SELECT actor FROM repair_audit WHERE sku_id = ? AND action = 'LIMIT'",
                String.class, sku)).hasSize(3).allMatch(actor -> !actor.isBlank());
    }

    @Test
    void aChangeThatMeetsARebuildIsInMysqlAndTheSameRequestAgainFinishesIt() {
        String sku = new InventoryClient(http).skuWith(10, 2, 1);
        String lock = StockKeys.stock(sku) + ":reload";
        redis.opsForValue().set(lock, "held by this test", Duration.ofMinutes(1));

        ResponseEntity<JsonNode> during = setLimit(sku, "{\"perUserLimit\": 5}", InventoryITSupport.ADMIN_TOKEN);

        assertThat(during.getStatusCode().value()).isEqualTo(503);
        assertThat(during.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(limitInMysql(sku)).isEqualTo(5);
        assertThat(limitInRedis(sku)).isEqualTo("2");
        redis.delete(lock);
        assertThat(setLimit(sku, "{\"perUserLimit\": 5}", InventoryITSupport.ADMIN_TOKEN).getStatusCode().value())
                .isEqualTo(200);
        assertThat(limitInRedis(sku)).isEqualTo("5");
    }

    @Test
    void badRequestsAndStrangersChangeNothing() {
        String sku = new InventoryClient(http).skuWith(10, 2, 1);
        for (String body : List.of("{}", "{\"perUserLimit\": 0}", "{\"perUserLimit\": -1}", "{\"perUserLimit\": 1.5}",
                "{\"perUserLimit\": \"3\"}", "{\"perUserLimit\": 99999999999}", "{\"perUserLimit\": 3, \"x\": 1}",
                "[3]", "3", "not json")) {
            ResponseEntity<JsonNode> answer = setLimit(sku, body, InventoryITSupport.ADMIN_TOKEN);
            assertThat(answer.getStatusCode().value()).as(body).isEqualTo(400);
            assertThat(answer.getHeaders().getContentType()).as(body).hasToString("application/problem+json");
        }
        assertThat(setLimit(sku, "{\"perUserLimit\": 3}", null).getStatusCode().value()).isEqualTo(401);
        assertThat(setLimit(sku, "{\"perUserLimit\": 3}", "not-the-token").getStatusCode().value()).isEqualTo(401);
        assertThat(setLimit("sku-" + UUID.randomUUID(), "{\"perUserLimit\": 3}", InventoryITSupport.ADMIN_TOKEN)
                .getStatusCode().value()).isEqualTo(404);
        assertThat(limitInMysql(sku)).isEqualTo(2);
        assertThat(limitInRedis(sku)).isEqualTo("2");
    }
}
