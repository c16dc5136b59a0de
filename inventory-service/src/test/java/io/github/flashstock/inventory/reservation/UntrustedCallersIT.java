package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.support.auth.ServiceSignature;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
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
 * Callers that lie: a Try from a service that is not known, one signed with a wrong key, one whose body or XID was
 * changed after signing, one replayed after its window, and bodies too large to parse. Each is answered with its 4xx
 * problem before it joins the transaction, and neither store changes. A known service's Try goes through.
 */
class UntrustedCallersIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    InventoryClient inventory;
    GlobalTransaction tx;
    String sku;

    @BeforeEach
    void open() throws Exception {
        inventory = new InventoryClient(http);
        sku = inventory.skuWith(10, null, 1);
        tx = GlobalTransactions.beginUnbound("untrusted-callers-it");
    }

    @AfterEach
    void close() throws Exception {
        GlobalTransactions.rollback(tx);
    }

    private String body(String reservationId, int quantity) {
        return "{\"reservationId\":\"" + reservationId + "\",\"userId\":\"alice\",\"lines\":[{\"skuId\":\"" + sku
                + "\",\"quantity\":" + quantity + "}]}";
    }

    /** Sends {@code body} with the given signature headers (none: unsigned) and the transaction's XID. */
    private ResponseEntity<JsonNode> send(String xid, String body, ServiceSignature.Signed signed) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("TX_XID", xid);
        if (signed == null) {
            headers.set(UNSIGNED, "1");
        } else {
            signed.writeTo(headers::set);
        }
        return http.exchange("/reservations", HttpMethod.POST, new HttpEntity<>(body, headers), JsonNode.class);
    }

    private static ServiceSignature.Signed sign(String caller, String key, String xid, String body, Instant at) {
        return ServiceSignature.sign(caller, key.getBytes(StandardCharsets.UTF_8), "POST", "/reservations", xid,
                body.getBytes(StandardCharsets.UTF_8), at);
    }

    private void assertRefusedUntouched(ResponseEntity<JsonNode> response, int status, String type,
                                        StockSnapshot before) {
        assertThat(response.getStatusCode().value()).as("%s", response.getBody()).isEqualTo(status);
        assertThat(response.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat(response.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:" + type);
        assertThat(StockSnapshot.of(redis, jdbc, sku)).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger WHERE xid = ?", Long.class, tx.getXid()))
                .isZero();
    }

    @Test
    void aTryFromNoKnownServiceIsRefusedBeforeItJoinsTheTransaction() {
        StockSnapshot before = StockSnapshot.of(redis, jdbc, sku);
        String body = body("o-" + UUID.randomUUID(), 2);
        String xid = tx.getXid();

        assertRefusedUntouched(send(xid, body, null), 401, "unknown-caller", before);
        assertRefusedUntouched(send(xid, body, sign("mallory", CALLER_KEY, xid, body, Instant.now())), 401,
                "unknown-caller", before);
        assertRefusedUntouched(send(xid, body, sign(CALLER, "a-guessed-key-of-order-demo-0123456789", xid, body,
                Instant.now())), 401, "unknown-caller", before);
        // a signed request, changed in transit: another quantity, another transaction
        assertRefusedUntouched(send(xid, body(UUID.randomUUID().toString(), 5),
                sign(CALLER, CALLER_KEY, xid, body, Instant.now())), 401, "unknown-caller", before);
        assertRefusedUntouched(send("127.0.0.1:18091:123456789", body, sign(CALLER, CALLER_KEY, xid, body,
                Instant.now())), 401, "unknown-caller", before);
        // a captured request sent again after its window
        assertRefusedUntouched(send(xid, body, sign(CALLER, CALLER_KEY, xid, body, Instant.now().minusSeconds(60))),
                401, "unknown-caller", before);

        // the known service, signing this request: reserved
        ResponseEntity<JsonNode> known = send(xid, body, sign(CALLER, CALLER_KEY, xid, body, Instant.now()));
        assertThat(known.getStatusCode().value()).as("%s", known.getBody()).isEqualTo(201);
    }

    /** A guessed XID tells an unknown caller nothing: the answer is the same 401 whether the XID is live or not. */
    @Test
    void aGuessedXidGetsTheSameAnswerAsALiveOne() {
        String body = body("o-" + UUID.randomUUID(), 1);
        ResponseEntity<JsonNode> live = send(tx.getXid(), body, null);
        ResponseEntity<JsonNode> guessed = send("127.0.0.1:18091:987654321", body, null);
        assertThat(live.getStatusCode().value()).isEqualTo(401);
        assertThat(guessed.getStatusCode().value()).isEqualTo(401);
        assertThat(live.getBody().path("detail").asText()).isEqualTo(guessed.getBody().path("detail").asText());
    }

    @Test
    void bodiesTooLargeAreRefusedBeforeParsing() {
        StockSnapshot before = StockSnapshot.of(redis, jdbc, sku);
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            items.append(i == 0 ? "" : ",").append("{\"skuId\":\"").append(sku).append("\",\"quantity\":1}");
        }
        String huge = "{\"reservationId\":\"o-huge\",\"userId\":\"alice\",\"lines\":[" + items + "]}";
        assertRefusedUntouched(send(tx.getXid(), huge, sign(CALLER, CALLER_KEY, tx.getXid(), huge, Instant.now())),
                413, "payload-too-large", before);

        // 101 items: small enough to read, refused by the list's bound
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            many.append(i == 0 ? "" : ",").append("{\"skuId\":\"s").append(i).append("\",\"quantity\":1}");
        }
        String tooMany = "{\"reservationId\":\"o-many\",\"userId\":\"alice\",\"lines\":[" + many + "]}";
        assertRefusedUntouched(send(tx.getXid(), tooMany, sign(CALLER, CALLER_KEY, tx.getXid(), tooMany,
                Instant.now())), 400, "invalid-request", before);
    }

    @Test
    void anAdminBodyWithAnUnknownFieldIsRefused() {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        String created = "sku-" + UUID.randomUUID();
        ResponseEntity<JsonNode> r = http.exchange("/admin/skus/" + created, HttpMethod.PUT,
                new HttpEntity<>(Map.of("stocked", 10, "segments", 1, "perUserLimt", 2), headers), JsonNode.class);
        assertThat(r.getStatusCode().value()).as("%s", r.getBody()).isEqualTo(400);
        assertThat(r.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:malformed-request");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sku_stock WHERE sku_id = ?", Long.class, created))
                .isZero();
    }

    /** Many unknown callers at once, while the known service reserves: only the known service's Tries take units. */
    @Test
    void aFloodOfUnsignedTriesTakesNothing() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                boolean known = i % 8 == 0;
                String body = body("o-" + i + "-" + UUID.randomUUID(), 1);
                answers.add(pool.submit(() -> send(tx.getXid(), body,
                        known ? sign(CALLER, CALLER_KEY, tx.getXid(), body, Instant.now()) : null)
                        .getStatusCode().value()));
            }
            int reserved = 0;
            for (Future<Integer> a : answers) {
                int status = a.get();
                assertThat(status).isIn(201, 401);
                reserved += status == 201 ? 1 : 0;
            }
            assertThat(reserved).isEqualTo(8);
            assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isEqualTo(8);
        } finally {
            pool.shutdownNow();
        }
    }
}
