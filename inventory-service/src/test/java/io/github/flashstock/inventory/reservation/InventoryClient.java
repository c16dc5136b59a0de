package io.github.flashstock.inventory.reservation;

import tools.jackson.databind.JsonNode;
import io.github.flashstock.inventory.InventoryITSupport;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/** The inventory service's HTTP API as the tests call it. */
public final class InventoryClient {

    private final TestRestTemplate http;

    public InventoryClient(TestRestTemplate http) {
        this.http = http;
    }

    /** A new SKU created through the admin API. */
    public String skuWith(long total, Integer perUserLimit, int segments) {
        String sku = "sku-" + UUID.randomUUID();
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(InventoryITSupport.ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        Map<String, Object> body = perUserLimit == null ? Map.of("stocked", total, "segments", segments)
                : Map.of("stocked", total, "perUserLimit", perUserLimit, "segments", segments);
        ResponseEntity<String> r = http.exchange("/admin/skus/" + sku, HttpMethod.PUT, new HttpEntity<>(body, headers),
                String.class);
        if (r.getStatusCode().value() != 201) {
            throw new AssertionError("cannot create " + sku + ": " + r);
        }
        return sku;
    }

    public record Item(String skuId, int quantity) {
    }

    public ResponseEntity<JsonNode> reserve(String xid, String reservationId, String userId, List<Item> items) {
        return reserveRaw(xid, Map.of("reservationId", reservationId, "userId", userId, "lines", items));
    }

    ResponseEntity<JsonNode> reserveRaw(String xid, Object body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        if (xid != null) {
            headers.set("TX_XID", xid);
        }
        return http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(body, headers), JsonNode.class);
    }

    /** {@code GET /skus/{id}/stock}, the admin's view of both stores. */
    public JsonNode stock(String sku) {
        return stockAnswer(sku).getBody();
    }

    /** {@code GET /skus/{id}/stock} as answered, status included. */
    public ResponseEntity<JsonNode> stockAnswer(String sku) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(InventoryITSupport.ADMIN_TOKEN);
        return http.exchange("/skus/" + sku + "/stock", HttpMethod.GET, new HttpEntity<>(headers), JsonNode.class);
    }
}
