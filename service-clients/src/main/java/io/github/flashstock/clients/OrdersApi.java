package io.github.flashstock.clients;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * order-demo's HTTP API (docs/api.md), one instance, as a buyer calls it: every call carries the buyer's
 * {@code Authorization} header ({@code Bearer <token>}, as the harness's {@code BuyerTokens} make it). Answers are
 * typed; anything else is a {@link ServiceProblem} (refusals: 409 {@code insufficient-stock}, 401, 503 with
 * {@code Retry-After}, ...) or a {@link ServiceUnreachable}. Immutable.
 */
public final class OrdersApi {

    /** The header that injects a fault in an instance run with profile {@code faults}. */
    public static final String FAULT_HEADER = "X-Flashstock-Fault";

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private final String url;
    private final Duration placeTimeout;

    /** @param url the instance's base URL ({@code http://127.0.0.1:8082}) */
    public OrdersApi(String url) {
        this(url, Duration.ofSeconds(60));
    }

    private OrdersApi(String url, Duration placeTimeout) {
        this.url = Objects.requireNonNull(url, "url");
        this.placeTimeout = placeTimeout;
    }

    /** This client, waiting up to {@code timeout} for an order's answer (60 s otherwise). */
    public OrdersApi withPlaceTimeout(Duration timeout) {
        return new OrdersApi(url, timeout);
    }

    public String url() {
        return url;
    }

    /** One line of an order. */
    public record OrderLine(String skuId, int quantity) {
    }

    /** The body of {@code POST /orders}: what is bought (who buys is the token's subject). */
    public record OrderRequest(List<OrderLine> items) {

        /** One line per SKU, in the map's order. */
        public static OrderRequest of(Map<String, Integer> units) {
            List<OrderLine> lines = new ArrayList<>();
            units.forEach((sku, n) -> lines.add(new OrderLine(sku, n)));
            return new OrderRequest(List.copyOf(lines));
        }

        /** One line of {@code quantity} units. */
        public static OrderRequest of(String skuId, int quantity) {
            return new OrderRequest(List.of(new OrderLine(skuId, quantity)));
        }

        /** The body as JSON. */
        public String json() {
            return ServiceHttp.write(this);
        }
    }

    /**
     * An order placed: {@code CONFIRMED} (201), or {@code PENDING} and {@code accepted} (202: the outcome is open;
     * poll {@link #order}).
     */
    public record Placed(String orderId, String status, boolean accepted) {
    }

    /** An order as its buyer sees it. */
    public record OrderDetails(String orderId, String userId, String status, List<OrderLine> items,
                               Instant createdAt, Instant updatedAt) {
    }

    /** {@code POST /orders}: 201 or 202; every other answer is a {@link ServiceProblem}. */
    public Placed place(String authorization, OrderRequest order) {
        return place(authorization, order, null, null);
    }

    /**
     * {@code POST /orders} with an {@code Idempotency-Key} (the order's id; null: none, the service picks one) and a
     * fault to inject (null: none).
     */
    public Placed place(String authorization, OrderRequest order, String idempotencyKey, String fault) {
        HttpRequest.Builder request = ServiceHttp.request(url + "/orders", "POST", order, placeTimeout);
        header(request, "Authorization", authorization);
        header(request, "Idempotency-Key", idempotencyKey);
        header(request, FAULT_HEADER, fault);
        ServiceHttp.Reply reply = ServiceHttp.send(request.build()).expect(201, 202);
        Placed placed = reply.as(Placed.class);
        return new Placed(placed.orderId(), placed.status(), reply.status() == 202);
    }

    /** {@code GET /orders/{id}}: to its buyer; 403 {@code order-of-another-buyer}, 404 {@code unknown-order}. */
    public OrderDetails order(String authorization, String orderId) {
        HttpRequest.Builder request = ServiceHttp.request(url + "/orders/" + orderId, "GET", null, READ_TIMEOUT);
        header(request, "Authorization", authorization);
        return ServiceHttp.send(request.build()).expect(200).as(OrderDetails.class);
    }

    private static void header(HttpRequest.Builder request, String name, String value) {
        if (value != null) {
            request.header(name, value);
        }
    }
}
