package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;
import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;

/** Every invalid request gets its 4xx problem, and both stores are exactly as they were before it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReservationBadInputIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    InventoryClient inventory;
    String sku;
    String limited;
    GlobalTransaction tx;

    @BeforeAll
    void openTransaction() throws Exception {
        tx = GlobalTransactions.beginUnbound("bad-input-it", java.time.Duration.ofMinutes(2));
    }

    @AfterAll
    void closeTransaction() throws Exception {
        tx.rollback();
    }

    @BeforeEach
    void skus() {
        inventory = new InventoryClient(http);
        sku = inventory.skuWith(5, null, 2);
        limited = inventory.skuWith(5, 1, 1);
    }

    static Stream<Arguments> badRequests() {
        String overLine = "{\"reservationId\":\"r1\",\"userId\":\"u1\",\"lines\":[{\"skuId\":\"%s\",\"quantity\":1001}]}";
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            many.add(Map.of("skuId", "SKU", "quantity", 1));
        }
        return Stream.of(
                Arguments.of("quantity zero", true, body("SKU", 0), 400, "invalid-request"),
                Arguments.of("quantity negative", true, body("SKU", -2), 400, "invalid-request"),
                Arguments.of("quantity above the per-line maximum", true, overLine, 400, "invalid-request"),
                Arguments.of("lines of one SKU above the maximum together", true,
                        Map.of("reservationId", "r1", "userId", "u1", "lines",
                                List.of(Map.of("skuId", "SKU", "quantity", 600), Map.of("skuId", "SKU", "quantity", 600))),
                        400, "invalid-request"),
                Arguments.of("lines of one SKU whose sum overflows an int", true,
                        Map.of("reservationId", "r1", "userId", "u1", "lines", List.of(
                                Map.of("skuId", "SKU", "quantity", Integer.MAX_VALUE),
                                Map.of("skuId", "SKU", "quantity", Integer.MAX_VALUE))),
                        400, "invalid-request"),
                Arguments.of("too many lines", true, Map.of("reservationId", "r1", "userId", "u1", "lines", many),
                        400, "invalid-request"),
                Arguments.of("no lines", true, Map.of("reservationId", "r1", "userId", "u1", "lines", List.of()),
                        400, "invalid-request"),
                Arguments.of("blank reservation id", true, Map.of("reservationId", " ", "userId", "u1", "lines",
                        List.of(Map.of("skuId", "SKU", "quantity", 1))), 400, "invalid-request"),
                Arguments.of("blank user id", true, Map.of("reservationId", "r1", "userId", "", "lines",
                        List.of(Map.of("skuId", "SKU", "quantity", 1))), 400, "invalid-request"),
                Arguments.of("blank SKU id", true, body("", 1), 400, "invalid-request"),
                Arguments.of("SKU id with braces", true, body("a{b}", 1), 400, "invalid-request"),
                Arguments.of("malformed JSON", true, "{\"reservationId\":", 400, "malformed-request"),
                Arguments.of("quantity overflows an int", true,
                        "{\"reservationId\":\"r1\",\"userId\":\"u1\",\"lines\":[{\"skuId\":\"SKU\",\"quantity\":99999999999}]}",
                        400, "malformed-request"),
                Arguments.of("quantity not a number", true,
                        "{\"reservationId\":\"r1\",\"userId\":\"u1\",\"lines\":[{\"skuId\":\"SKU\",\"quantity\":\"two\"}]}",
                        400, "malformed-request"),
                Arguments.of("quantity a fraction (never rounded)", true,
                        "{\"reservationId\":\"r1\",\"userId\":\"u1\",\"lines\":[{\"skuId\":\"SKU\",\"quantity\":1.5}]}",
                        400, "malformed-request"),
                Arguments.of("quantity a string of digits (never coerced)", true,
                        "{\"reservationId\":\"r1\",\"userId\":\"u1\",\"lines\":[{\"skuId\":\"SKU\",\"quantity\":\"2\"}]}",
                        400, "malformed-request"),
                Arguments.of("missing transaction", false, body("SKU", 1), 400, "missing-transaction"),
                Arguments.of("unknown SKU", true, body("no-such-sku-" + UUID.randomUUID(), 1), 404, "unknown-sku"),
                Arguments.of("over the purchase limit", true, body("LIMITED", 2), 409, "purchase-limit-exceeded"),
                Arguments.of("more than the stock", true, body("SKU", 6), 409, "insufficient-stock"));
    }

    static Map<String, Object> body(String sku, int quantity) {
        return Map.of("reservationId", "r-" + UUID.randomUUID(), "userId", "u1",
                "lines", List.of(Map.of("skuId", sku, "quantity", quantity)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void answersWithAProblemAndChangesNothing(String name, boolean withXid, Object body, int status, String type) {
        Object request = body instanceof String s ? s.replace("%s", sku) : replaceSku(body);
        StockSnapshot before = StockSnapshot.of(redis, jdbc, sku, limited);

        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        if (withXid) {
            headers.set("TX_XID", tx.getXid());
        }
        ResponseEntity<JsonNode> response = http.exchange("/reservations", HttpMethod.POST,
                new HttpEntity<>(request instanceof String s ? s.replace("\"SKU\"", "\"" + sku + "\"") : request, headers),
                JsonNode.class);

        assertThat(response.getStatusCode().value()).as("%s: %s", name, response.getBody()).isEqualTo(status);
        assertThat(response.getHeaders().getContentType()).isNotNull();
        assertThat(response.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat(response.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:" + type);
        StockSnapshot after = StockSnapshot.of(redis, jdbc, sku, limited);
        if (status == 409) {
            // a refused Try changes no stock and leaves its REFUSED record, so that a commit after it takes nothing
            assertThat(after.withoutRefusals()).isEqualTo(before);
            assertThat(after.refusals()).isEqualTo(1);
        } else {
            assertThat(after).isEqualTo(before);
        }
    }

    @SuppressWarnings("unchecked")
    private Object replaceSku(Object body) {
        if (body instanceof Map<?, ?> m) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> copy.put((String) k, replaceSku(v)));
            return copy;
        }
        if (body instanceof List<?> l) {
            return l.stream().map(this::replaceSku).toList();
        }
        if ("SKU".equals(body)) {
            return sku;
        }
        if ("LIMITED".equals(body)) {
            return limited;
        }
        return body;
    }
}
