package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The calls the end-to-end tests make: orders on order-demo (each as its buyer, with the buyer's token), stock and
 * admin on inventory-service.
 */
final class Http {

    record Reply(int status, JsonNode body) {
        String type() {
            return body.path("type").asText();
        }
    }

    /** One buyer's order: who places it (the token's subject) and the body (what is bought). */
    record Order(String buyer, String body) {
    }

    private final String orderUrl;
    private final String inventoryUrl;
    private final String adminToken;
    private final BuyerTokens buyers;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();

    Http(String orderUrl, String inventoryUrl, String adminToken, BuyerTokens buyers) {
        this.orderUrl = orderUrl;
        this.inventoryUrl = inventoryUrl;
        this.adminToken = adminToken;
        this.buyers = buyers;
    }

    /** The first instance of each service. */
    static Http of(Services services) {
        return new Http(services.order().url(), services.inventory().url(), services.adminToken(), services.buyers());
    }

    Reply createSku(String skuId, int units, int perUserLimit) {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/admin/skus/" + skuId))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"stocked\":" + units + ",\"perUserLimit\":" + perUserLimit
                        + ",\"segments\":1}")));
    }

    /** {@code GET /admin/console/overview}: every inventory instance as the console sees it. */
    Reply consoleOverview() {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/admin/console/overview"))
                .header("Authorization", "Bearer " + adminToken).GET());
    }

    Reply placeOrder(Order order) {
        return placeOrder(order, null);
    }

    Reply placeOrder(Order order, String fault) {
        return placeOrderWith(buyers.bearer(order.buyer()), order.body(), fault);
    }

    /** {@code POST /orders} of any body, as the buyer. */
    Reply placeOrder(String buyer, String body) {
        return placeOrderWith(buyers.bearer(buyer), body, null);
    }

    /** {@code POST /orders} with this {@code Authorization} header, or none when null. */
    Reply placeOrderWith(String authorization, String body, String fault) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(orderUrl + "/orders"))
                .timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (fault != null) {
            request.header("X-Flashstock-Fault", fault);
        }
        return send(request);
    }

    /** {@code POST /orders} as the buyer, with the extra request headers given (a header a buyer might add). */
    Reply placeOrderWithHeaders(Order order, java.util.Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(orderUrl + "/orders"))
                .timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json")
                .header("Authorization", buyers.bearer(order.buyer()))
                .POST(HttpRequest.BodyPublishers.ofString(order.body()));
        headers.forEach(request::header);
        return send(request);
    }

    /** One line of {@code quantity} units of the SKU, for the buyer. */
    static Order order(String buyer, String skuId, int quantity) {
        return new Order(buyer, "{\"items\":[{\"skuId\":\"" + skuId + "\",\"quantity\":" + quantity + "}]}");
    }

    /** {@code GET /orders/{id}} as the buyer. */
    Reply readOrder(String buyer, String orderId) {
        return send(HttpRequest.newBuilder(URI.create(orderUrl + "/orders/" + orderId))
                .header("Authorization", buyers.bearer(buyer)).GET());
    }

    /**
     * {@code GET /skus/{id}/stock} with the admin token: the Redis view under {@code redis}, the MySQL view under
     * {@code mysql}.
     */
    JsonNode stock(String skuId) {
        Reply reply = send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/skus/" + skuId + "/stock"))
                .header("Authorization", "Bearer " + adminToken).GET());
        if (reply.status() != 200) {
            throw new IllegalStateException("stock of " + skuId + ": " + reply.status() + " " + reply.body());
        }
        return reply.body();
    }

    Reply refreshOrderConfig() {
        return send(HttpRequest.newBuilder(URI.create(orderUrl + "/actuator/refresh"))
                .header("Authorization", "Bearer " + adminToken)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code POST /actuator/refresh} on inventory-service, with the admin token. */
    Reply refreshInventoryConfig() {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/actuator/refresh"))
                .header("Authorization", "Bearer " + adminToken)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code POST /admin/skus/{id}/handovers} of {@code units} in {@code direction} (TO_MYSQL or TO_REDIS). */
    Reply handover(String skuId, String direction, long units) {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/admin/skus/" + skuId + "/handovers"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"direction\":\"" + direction + "\",\"units\":" + units
                        + "}")));
    }

    /** {@code PUT /admin/skus/{skuId}/limit}: the per-user limit, live ({@code null}: none). */
    Reply changeLimit(String skuId, Integer limit) {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/admin/skus/" + skuId + "/limit"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"perUserLimit\":" + limit + "}")));
    }

    /** {@code POST /actuator/refresh} on order-demo without the admin token. */
    Reply refreshOrderConfigAnonymously() {
        return send(HttpRequest.newBuilder(URI.create(orderUrl + "/actuator/refresh"))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** A counter or gauge of order-demo's actuator metrics, 0 when it has not been registered yet. */
    double orderMetric(String name, String tag) {
        return measured(send(HttpRequest.newBuilder(URI.create(orderUrl + "/actuator/metrics/" + name + "?tag=" + tag))
                .header("Authorization", "Bearer " + adminToken).GET()), name);
    }

    /** A counter of order-demo's actuator metrics without tags, 0 when it has not been registered yet. */
    double orderMetric(String name) {
        return metric(orderUrl, name);
    }

    /** A counter of inventory-service's actuator metrics without tags, 0 when it has not been registered yet. */
    double inventoryMetric(String name) {
        return metric(inventoryUrl, name);
    }

    private double metric(String baseUrl, String name) {
        return measured(send(HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/metrics/" + name))
                .header("Authorization", "Bearer " + adminToken).GET()), name);
    }

    /** The first measurement; 0 for a metric not registered yet (404); any other answer is a failure of the test. */
    private static double measured(Reply reply, String name) {
        if (reply.status() == 404) {
            return 0;
        }
        if (reply.status() != 200) {
            throw new IllegalStateException("metric " + name + ": " + reply.status() + " " + reply.body());
        }
        return reply.body().path("measurements").path(0).path("value").asDouble();
    }

    /** {@code POST /admin/skus/{id}/restock} of {@code units}, under a new operation id. */
    Reply restock(String skuId, int units) {
        return send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/admin/skus/" + skuId + "/restock"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .header("Idempotency-Key", "restock-" + java.util.UUID.randomUUID())
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + units + "}")));
    }

    /** {@code PUT /admin/skus/{id}/settings} on the inventory instance at {@code inventory}: the sale console's change. */
    Reply skuSettings(String inventory, String skuId, String body) {
        return send(HttpRequest.newBuilder(URI.create(inventory + "/admin/skus/" + skuId + "/settings"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            return new Reply(response.statusCode(), json.readTree(body == null || body.isBlank() ? "{}" : body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
