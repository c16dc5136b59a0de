package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Orders through order-demo, stock through inventory-service, both branches coordinated by the devstack's TC. */
class OrderTransactionsIT {

    private final Http http = EndToEnd.http();

    private static String sku() {
        return "e2e-" + UUID.randomUUID().toString().substring(0, 12);
    }

    @Test
    void commitConfirmsTheOrderAndSellsItsUnitsOnceInRedisAndMysql() {
        String sku = sku();
        http.createSku(sku, 10, 5);

        Http.Reply placed = http.placeOrder(order("alice", sku, 2));

        assertThat(placed.status()).isEqualTo(201);
        assertThat(placed.body().path("status").asText()).isEqualTo("CONFIRMED");
        String orderId = placed.body().path("orderId").asText();
        assertThat(placed.body().has("xid")).as("the XID is not the buyer's business").isFalse();
        assertThat(OrdersTable.xid(orderId)).as("but the orders table keeps it").isPresent();
        Http.Reply read = http.readOrder("alice", orderId);
        assertThat(read.body().path("status").asText()).isEqualTo("CONFIRMED");
        assertThat(read.body().path("userId").asText()).isEqualTo("alice");
        assertThat(read.body().has("xid")).isFalse();
        assertStock(sku, 2, 8);
    }

    @Test
    void insufficientStockComesBackAsTheSameProblemAndCancelsTheOrder() {
        String sku = sku();
        http.createSku(sku, 1, 5);

        Http.Reply refused = http.placeOrder(order("bob", sku, 2));

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.type()).isEqualTo("urn:flashstock:problem:insufficient-stock");
        assertThat(refused.body().path("skuId").asText()).isEqualTo(sku);
        assertThat(refused.body().path("requested").asInt()).isEqualTo(2);
        assertThat(refused.body().path("available").asInt()).isEqualTo(1);
        assertThat(http.readOrder("bob", refused.body().path("orderId").asText()).body().path("status").asText())
                .isEqualTo("CANCELLED");
        assertStock(sku, 0, 1);
    }

    @Test
    void purchaseLimitComesBackAsTheSameProblemAndCancelsTheOrder() {
        String sku = sku();
        http.createSku(sku, 10, 1);
        assertThat(http.placeOrder(order("carol", sku, 1)).status()).isEqualTo(201);

        Http.Reply refused = http.placeOrder(order("carol", sku, 1));

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.type()).isEqualTo("urn:flashstock:problem:purchase-limit-exceeded");
        assertThat(refused.body().path("limit").asInt()).isEqualTo(1);
        assertThat(refused.body().path("alreadyBought").asInt()).isEqualTo(1);
        assertThat(http.readOrder("carol", refused.body().path("orderId").asText()).body().path("status").asText())
                .isEqualTo("CANCELLED");
        assertStock(sku, 1, 9);
    }

    @Test
    void unknownSkuComesBackAs404AndCancelsTheOrder() {
        Http.Reply refused = http.placeOrder(order("dave", sku(), 1));

        assertThat(refused.status()).isEqualTo(404);
        assertThat(refused.type()).isEqualTo("urn:flashstock:problem:unknown-sku");
        assertThat(http.readOrder("dave", refused.body().path("orderId").asText()).body().path("status").asText())
                .isEqualTo("CANCELLED");
    }

    @Test
    void failureAfterTheInventoryTryRollsBackAndInventoryCancelRestoresTheStock() {
        String sku = sku();
        http.createSku(sku, 5, 5);

        Http.Reply failed = http.placeOrder(order("erin", sku, 3), "fail-after-reserve");

        assertThat(failed.status()).isEqualTo(500);
        assertThat(failed.type()).isEqualTo("urn:flashstock:problem:injected-failure");
        assertThat(http.readOrder("erin", failed.body().path("orderId").asText()).body().path("status").asText())
                .isEqualTo("CANCELLED");
        assertStock(sku, 0, 5);
    }

    @Test
    void reservationCallRetriedInsideOneGlobalTransactionDeductsOnce() {
        String sku = sku();
        http.createSku(sku, 10, 5);
        double retriedBefore = http.orderMetric("resilience4j.retry.calls", "kind:successful_with_retry");

        Http.Reply placed = http.placeOrder(order("frank", sku, 2), "lose-first-reserve-response");

        assertThat(placed.status()).isEqualTo(201);
        assertThat(http.orderMetric("resilience4j.retry.calls", "kind:successful_with_retry"))
                .as("the reservation call was made twice").isEqualTo(retriedBefore + 1);
        assertStock(sku, 2, 8);
    }

    @Test
    void badInputIsAProblemAndReservesNothing() {
        String sku = sku();
        http.createSku(sku, 10, 5);
        List<String> invalid = List.of(
                "{\"items\":[]}",
                "{\"userId\":\"gina\",\"items\":[{\"skuId\":\"" + sku + "\",\"quantity\":1}]}",
                "{\"items\":[{\"skuId\":\"" + sku + "\",\"quantity\":0}]}",
                "{\"items\":[{\"skuId\":\"" + sku + "\",\"quantity\":-2}]}");
        List<String> malformed = List.of(
                "{\"items\":[{\"skuId\":\"" + sku + "\",\"quantity\":99999999999}]}",
                "{\"items\":[{\"skuId\":\"" + sku + "\",\"quantity\":1}]",
                "not json");

        for (String body : invalid) {
            Http.Reply reply = http.placeOrder("gina", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.type()).as(body).isEqualTo("urn:flashstock:problem:invalid-request");
        }
        for (String body : malformed) {
            Http.Reply reply = http.placeOrder("gina", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.type()).as(body).isEqualTo("urn:flashstock:problem:malformed-request");
        }
        Http.Reply unknownFault = http.placeOrder(order("gina", sku, 1), "explode-now");
        assertThat(unknownFault.status()).isEqualTo(400);

        assertStock(sku, 0, 10);
    }

    @Test
    void onlyAGoodBuyerTokenPlacesAnOrderAndOnlyItsBuyerReadsIt() {
        String sku = sku();
        http.createSku(sku, 10, 5);
        String body = order("hal", sku, 1).body();
        BuyerTokens someoneElses = BuyerTokens.generate();
        Instant now = Instant.now();
        Map<String, String> refused = Map.of(
                "forged", someoneElses.bearer("hal"),
                "expired", "Bearer " + EndToEnd.services().buyers().token("hal", BuyerTokens.ISSUER,
                        now.minus(Duration.ofHours(2)), now.minus(Duration.ofHours(1))),
                "another issuer", "Bearer " + EndToEnd.services().buyers().token("hal", "urn:someone-else",
                        now, now.plus(Duration.ofHours(1))),
                "not a JWT", "Bearer not-a-jwt");

        Http.Reply none = http.placeOrderWith(null, body, null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.type()).isEqualTo("urn:flashstock:problem:buyer-token-required");
        refused.forEach((what, token) -> {
            Http.Reply reply = http.placeOrderWith(token, body, null);
            assertThat(reply.status()).as(what).isEqualTo(401);
            assertThat(reply.type()).as(what).isEqualTo("urn:flashstock:problem:buyer-token-refused");
        });
        assertStock(sku, 0, 10);

        Http.Reply placed = http.placeOrder(order("hal", sku, 1));
        assertThat(placed.status()).isEqualTo(201);
        Http.Reply peeked = http.readOrder("ida", placed.body().path("orderId").asText());
        assertThat(peeked.status()).isEqualTo(403);
        assertThat(peeked.type()).isEqualTo("urn:flashstock:problem:order-of-another-buyer");
        assertThat(http.readOrder("hal", placed.body().path("orderId").asText()).status()).isEqualTo(200);
    }

    /** Sold units and remaining units, as Redis and MySQL each see them, with nothing left reserved. */
    private void assertStock(String sku, int sold, int available) {
        JsonNode stock = http.stock(sku);
        assertThat(stock.path("redis").path("sold").asInt()).as("sold in Redis").isEqualTo(sold);
        assertThat(stock.path("mysql").path("sold").asInt()).as("sold in MySQL").isEqualTo(sold);
        assertThat(stock.path("redis").path("reserved").asInt()).as("reserved in Redis").isZero();
        assertThat(stock.path("mysql").path("reserved").asInt()).as("reserved in MySQL").isZero();
        // the units left are Redis's and the MySQL store's allotment (nacos-config's default allotment: 10 % of a SKU)
        assertThat(stock.path("redis").path("available").asInt() + stock.path("mysql").path("allotment")
                .path("available").asInt()).as("available in Redis and the MySQL store's allotment").isEqualTo(available);
        assertThat(stock.path("mysql").path("available").asInt()).as("available in MySQL").isEqualTo(available);
    }
}
