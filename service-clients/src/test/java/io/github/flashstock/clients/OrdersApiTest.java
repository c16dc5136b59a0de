package io.github.flashstock.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@link OrdersApi} sends as a buyer and how it reads order-demo's answers, against a fake service. */
class OrdersApiTest {

    private final FakeService service = new FakeService();
    private final OrdersApi api = new OrdersApi(service.url());

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void placesAnOrderAsTheBuyerWithItsKeyAndFault() {
        service.answer(201, "{\"orderId\":\"order-0001\",\"status\":\"CONFIRMED\"}");
        Map<String, Integer> units = new LinkedHashMap<>();
        units.put("hot", 2);
        units.put("side", 1);

        OrdersApi.Placed placed = api.place("Bearer t", OrdersApi.OrderRequest.of(units), "order-0001",
                "delay-after-reserve=PT1S");

        assertThat(placed).isEqualTo(new OrdersApi.Placed("order-0001", "CONFIRMED", false));
        FakeService.Request request = service.last();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/orders");
        assertThat(request.header("Authorization")).isEqualTo("Bearer t");
        assertThat(request.header("Idempotency-Key")).isEqualTo("order-0001");
        assertThat(request.header(OrdersApi.FAULT_HEADER)).isEqualTo("delay-after-reserve=PT1S");
        assertThat(request.body()).isEqualTo(OrdersApi.OrderRequest.of(units).json())
                .isEqualTo("{\"items\":[{\"skuId\":\"hot\",\"quantity\":2},{\"skuId\":\"side\",\"quantity\":1}]}");
    }

    @Test
    void anOpenOutcomeIsAcceptedAndNoKeyOrFaultGoesWithoutOne() {
        service.answer(202, "{\"orderId\":\"o-2\",\"status\":\"PENDING\"}");

        OrdersApi.Placed placed = api.place("Bearer t", OrdersApi.OrderRequest.of("hot", 1));

        assertThat(placed.accepted()).isTrue();
        assertThat(placed.status()).isEqualTo("PENDING");
        assertThat(service.last().header("Idempotency-Key")).isNull();
        assertThat(service.last().header(OrdersApi.FAULT_HEADER)).isNull();
    }

    @Test
    void aRefusalKeepsItsStatusProblemRetryAfterAndBody() {
        String body = "{\"type\":\"urn:flashstock:problem:coordinator-unavailable\",\"status\":503,"
                + "\"orderId\":\"o-3\"}";
        service.answer(503, body, Map.of("Retry-After", "2"));

        assertThatThrownBy(() -> api.place("Bearer t", OrdersApi.OrderRequest.of("hot", 1)))
                .isInstanceOfSatisfying(ServiceProblem.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.problem().name()).isEqualTo("coordinator-unavailable");
                    assertThat(e.problem().property("orderId")).isEqualTo("o-3");
                    assertThat(e.retryAfter()).contains("2");
                    assertThat(e.body()).isEqualTo(body);
                });
    }

    @Test
    void anAnswerThePlacementDoesNotKnowIsAProblemEvenWithout4xx() {
        service.answer(200, "{\"orderId\":\"o-4\"}");

        assertThatThrownBy(() -> api.place("Bearer t", OrdersApi.OrderRequest.of("hot", 1)))
                .isInstanceOfSatisfying(ServiceProblem.class, e -> {
                    assertThat(e.status()).isEqualTo(200);
                    assertThat(e.problem().type()).isEmpty();
                });
    }

    @Test
    void readsAnOrderAsItsBuyer() {
        service.answer(200, "{\"orderId\":\"o-5\",\"userId\":\"u\",\"status\":\"CANCELLED\",\"items\":"
                + "[{\"skuId\":\"hot\",\"quantity\":1}],\"createdAt\":\"2026-12-03T10:00:00Z\","
                + "\"updatedAt\":\"2026-12-03T10:00:03Z\"}");

        OrdersApi.OrderDetails order = api.order("Bearer t", "o-5");

        assertThat(order.status()).isEqualTo("CANCELLED");
        assertThat(order.items()).containsExactly(new OrdersApi.OrderLine("hot", 1));
        assertThat(order.updatedAt()).isEqualTo(Instant.parse("2026-12-03T10:00:03Z"));
        assertThat(service.last().path()).isEqualTo("/orders/o-5");
        assertThat(service.last().header("Authorization")).isEqualTo("Bearer t");
    }
}
