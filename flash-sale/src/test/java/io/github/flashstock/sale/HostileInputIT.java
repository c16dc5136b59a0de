package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Hostile input, generated, against both HTTP APIs of the running services: bodies that are not JSON or not of the
 * expected shape, numbers as strings and fractions, ids with braces, colons, slashes and control characters,
 * headers that are not Seata XIDs, or XIDs the coordinator never opened, buyer tokens that are missing, forged,
 * expired, from another issuer or for no user id. Every request is bad by construction, so
 * every answer must be a 4xx {@code application/problem+json} with a problem type, never a 5xx, and nothing may
 * change: not in Redis (the keys and values of the SKU under attack, how many stock keys exist), not in MySQL (its
 * stock row and ledger, how many SKUs, repairs, orders and order lines exist).
 */
class HostileInputIT {

    private static final String SKU = "hostile-target";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Services services;
    private Map<String, Object> before;

    @BeforeProperty
    void snapshot() throws Exception {
        services = EndToEnd.services();
        Http http = EndToEnd.http();
        Http.Reply created = http.createSku(SKU, 100, 5);
        assertThat(created.status()).isIn(201, 409);
        before = state();
    }

    @AfterProperty
    void nothingChanged() throws Exception {
        assertThat(state()).isEqualTo(before);
    }

    // ---- inventory: POST /reservations --------------------------------------------------------------------

    @Property(tries = 250)
    void reservationsRefuseEveryHostileRequestWithAProblem(@ForAll("reservationBodies") String body,
                                                           @ForAll("xids") String xid,
                                                           @ForAll("contentTypes") String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url() + "/reservations"))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!contentType.isEmpty()) {
            request.header("Content-Type", contentType);
        }
        if (!xid.isEmpty()) {
            request.header("TX_XID", xid);
        }
        // signed as the known service would sign it: the hostile part is the body or the XID, which the inventory
        // must refuse on its own merits (an unsigned request is refused before it is read: see below)
        signAsOrderDemo(request, "/reservations", xid.isEmpty() ? null : xid, body);

        assertProblem(send(request), body + " / TX_XID " + xid + " / " + contentType);
    }

    /** The devstack's key of order-demo (its application-devstack.yml and the inventory's). */
    private static final String ORDER_DEMO_KEY = "devstack-order-demo-signing-key-not-a-secret";

    private static void signAsOrderDemo(HttpRequest.Builder request, String path, String xid, String body) {
        sign(request, "order-demo", ORDER_DEMO_KEY, path, xid, body, java.time.Instant.now());
    }

    private static void sign(HttpRequest.Builder request, String caller, String key, String path, String xid,
                             String body, java.time.Instant at) {
        io.github.flashstock.support.auth.ServiceSignature.sign(caller, key.getBytes(StandardCharsets.UTF_8), "POST",
                path, xid, body.getBytes(StandardCharsets.UTF_8), at).writeTo(request::header);
    }

    /**
     * Callers that lie about who they are: no signature, another service's name, a guessed key, a signature made for
     * another request, one replayed after its window. A good reservation in every other respect, with a well-formed
     * XID: each is 401 {@code unknown-caller}, the same answer whether or not the XID is live, and nothing changes.
     */
    @Property(tries = 40)
    void reservationsRefuseCallersThatAreNotKnownServices(@ForAll("unknownXids") String xid,
                                                           @ForAll("forgeries") String forgery) {
        String body = "{\"reservationId\":\"r-forged\",\"userId\":\"mallory\",\"items\":[{\"skuId\":\"" + SKU
                + "\",\"quantity\":1}]}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url() + "/reservations"))
                .header("Content-Type", "application/json").header("TX_XID", xid)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        java.time.Instant now = java.time.Instant.now();
        switch (forgery) {
            case "unsigned" -> { }
            case "other-name" -> sign(request, "mallory", ORDER_DEMO_KEY, "/reservations", xid, body, now);
            case "guessed-key" -> sign(request, "order-demo", "a-guess-at-the-key-of-order-demo-0123456789",
                    "/reservations", xid, body, now);
            case "other-body" -> sign(request, "order-demo", ORDER_DEMO_KEY, "/reservations", xid,
                    body.replace("\"quantity\":1", "\"quantity\":50"), now);
            case "other-xid" -> sign(request, "order-demo", ORDER_DEMO_KEY, "/reservations", xid + "0", body, now);
            case "replayed-late" -> sign(request, "order-demo", ORDER_DEMO_KEY, "/reservations", xid, body,
                    now.minusSeconds(120));
            default -> throw new IllegalArgumentException(forgery);
        }

        HttpResponse<String> answer = send(request);

        assertProblem(answer, forgery + " / TX_XID " + xid);
        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(answer.body()).contains("urn:flashstock:problem:unknown-caller");
    }

    @Provide
    Arbitrary<String> forgeries() {
        return Arbitraries.of("unsigned", "other-name", "guessed-key", "other-body", "other-xid", "replayed-late");
    }

    /** Bodies too large to parse, on both services: 413 before anything reads them, whether sent whole or chunked. */
    @Example
    void bodiesTooLargeAreRefusedBeforeParsingOnBothServices() {
        String huge = "{\"userId\":\"u\",\"items\":[" + "{\"skuId\":\"x\",\"quantity\":1},".repeat(20_000)
                + "{\"skuId\":\"x\",\"quantity\":1}]}";
        for (String url : List.of(services.inventory().url() + "/reservations", services.order().url() + "/orders",
                services.inventory().url() + "/admin/skus/" + SKU + "/restock")) {
            for (boolean chunked : List.of(false, true)) {
                HttpRequest.BodyPublisher publisher = chunked
                        ? HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                                huge.getBytes(StandardCharsets.UTF_8)))
                        : HttpRequest.BodyPublishers.ofString(huge);
                // each with the credential its path asks for, so that only the size is wrong (without one, a chunked
                // body is refused for the credential before anything reads it: 401)
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "application/json")
                        .header("Authorization", url.endsWith("/orders") ? fuzzBuyer()
                                : "Bearer " + services.adminToken())
                        .POST(publisher);
                if (url.endsWith("/reservations")) {
                    signAsOrderDemo(request, "/reservations", "127.0.0.1:18091:1", huge);
                    request.header("TX_XID", "127.0.0.1:18091:1");
                }
                HttpResponse<String> answer = send(request);
                assertProblem(answer, url + (chunked ? " chunked" : ""));
                assertThat(answer.statusCode()).as(url + (chunked ? " chunked" : "")).isEqualTo(413);
                assertThat(answer.body()).contains("urn:flashstock:problem:payload-too-large");
            }
        }
    }

    @Property(tries = 150)
    void stockViewsRefuseHostileSkuIds(@ForAll("hostileIds") String skuId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url() + "/skus/"
                + URLEncoder.encode(skuId, StandardCharsets.UTF_8).replace("+", "%20") + "/stock"))
                .header("Authorization", "Bearer " + services.adminToken()).GET();

        assertProblem(send(request), skuId);
    }

    @Property(tries = 100)
    void availabilityRefusesHostileSkuIds(@ForAll("hostileIds") String skuId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url() + "/skus/"
                + URLEncoder.encode(skuId, StandardCharsets.UTF_8).replace("+", "%20") + "/available")).GET();

        assertProblem(send(request), skuId);
    }

    @Property(tries = 150)
    void adminRepairsRefuseWhatTheyCannotFind(@ForAll("hostileIds") String reservationId,
                                              @ForAll("xids") String xid) {
        String body = "{\"skuId\":\"" + SKU + "\",\"xid\":" + quote(xid) + ",\"reservationId\":"
                + quote(reservationId) + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url()
                        + "/admin/reconciliation/reservations/release"))
                .header("Authorization", "Bearer " + services.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));

        assertProblem(send(request), body);
    }

    @Property(tries = 40)
    void releasingAReservationRedisDoesNotHoldWritesNothing(@ForAll("goodReservationIds") String reservationId,
                                                            @ForAll("unknownXids") String xid) {
        String body = "{\"skuId\":\"" + SKU + "\",\"xid\":\"" + xid + "\",\"reservationId\":\"" + reservationId + "\"}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url()
                        + "/admin/reconciliation/reservations/release"))
                .header("Authorization", "Bearer " + services.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));

        HttpResponse<String> answer = send(request);

        assertProblem(answer, body);
        assertThat(answer.statusCode()).isEqualTo(409);
        assertThat(answer.body()).contains("urn:flashstock:problem:release-refused");
    }

    @Property(tries = 120)
    void handoversRefuseEveryHostileRequestWithAProblem(@ForAll("handoverBodies") String body,
                                                        @ForAll("handoverKeys") String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url()
                        + "/admin/skus/" + SKU + "/handovers"))
                .header("Authorization", "Bearer " + services.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!key.isEmpty()) {
            request.header("Idempotency-Key", key);
        }

        assertProblem(send(request), body + " / Idempotency-Key " + key);
    }

    /**
     * Bodies of POST /admin/skus/{id}/handovers that move nothing: a direction that is not one, or units that are not
     * a positive integer of a sane size or more than either store holds; or a good body sent with a hostile key.
     */
    @Provide
    Arbitrary<String> handoverBodies() {
        Arbitrary<String> badDirection = Combinators.combine(Arbitraries.of("\"SIDEWAYS\"", "\"to_mysql\"", "\"\"",
                        "null", "1", "[]", "\"TO_MYSQL \""), Arbitraries.of("1", "5", "10"))
                .as((direction, units) -> "{\"direction\":" + direction + ",\"units\":" + units + "}");
        Arbitrary<String> badUnits = Combinators.combine(Arbitraries.of("\"TO_MYSQL\"", "\"TO_REDIS\""),
                        Arbitraries.oneOf(hostileQuantities(), Arbitraries.of("999999999", "1000000001")))
                .as((direction, units) -> "{\"direction\":" + direction + ",\"units\":" + units + "}");
        return Arbitraries.oneOf(badDirection, badUnits, notJson(), Arbitraries.of("{}", "{\"units\":1}",
                "{\"direction\":\"TO_REDIS\"}"));
    }

    /** No key, or one that cannot be an operation id (with a good body, such a key alone must refuse). */
    @Provide
    Arbitrary<String> handoverKeys() {
        return Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.of("a b", "{op}", "op/1", "k".repeat(129)));
    }

    @Property(tries = 30)
    void aGoodHandoverWithAHostileKeyMovesNothing(@ForAll("hostileHandoverKeys") String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.inventory().url()
                        + "/admin/skus/" + SKU + "/handovers"))
                .header("Authorization", "Bearer " + services.adminToken())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"direction\":\"TO_REDIS\",\"units\":1}"));

        assertProblem(send(request), key);
    }

    @Provide
    Arbitrary<String> hostileHandoverKeys() {
        return Arbitraries.of("a b", "{op}", "op/1", "k".repeat(129), "op;1", "op\"1", "op?1");
    }

    @Provide
    Arbitrary<String> goodReservationIds() {
        return goodIds();
    }

    @Provide
    Arbitrary<String> unknownXids() {
        return Arbitraries.longs().between(1, Long.MAX_VALUE).map(n -> "127.0.0.1:18091:" + n);
    }

    // ---- order-demo: POST /orders ---------------------------------------------------------------------------

    @Property(tries = 250)
    void ordersRefuseEveryHostileRequestWithAProblem(@ForAll("orderBodies") String body,
                                                     @ForAll("contentTypes") String contentType) {
        // a good buyer token: the body alone is what is wrong
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.order().url() + "/orders"))
                .header("Authorization", fuzzBuyer())
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!contentType.isEmpty()) {
            request.header("Content-Type", contentType);
        }

        assertProblem(send(request), body + " / " + contentType);
    }

    /** A good order in every respect but its buyer token: nothing may be placed. */
    @Property(tries = 120)
    void ordersRefuseEveryHostileBuyerTokenWithAProblem(@ForAll("authorizations") String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.order().url() + "/orders"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + quote(SKU)
                        + ",\"quantity\":1}]}"));
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }

        HttpResponse<String> answer = send(request);

        assertProblem(answer, "Authorization " + authorization);
        assertThat(answer.statusCode()).as("Authorization %s", authorization).isIn(400, 401);
    }

    /**
     * One buyer floods {@code POST /orders}: past its burst it is answered 429 {@code too-many-orders} with
     * {@code Retry-After}, while another buyer is not; the bucket lives in the devstack's Redis, where every
     * order-demo instance draws from it. The orders are invalid (quantity 0), so each one that passes the limit is a
     * 400 of validation and nothing is recorded: only the buyer's rate is spent.
     */
    @Example
    void aFloodOfOneBuyerIsHeldOffWhileOtherBuyersAreNot() {
        Endpoints stack = SharedStack.endpoints();
        RedisClient client = RedisClient.create("redis://" + stack.redisHost() + ":" + stack.redisPort());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            // order-demo counts on its own for a few seconds after Redis answered it late: wait until an order of a
            // buyer of its own lands in a bucket in Redis, the state this test is about
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        String probe = "probing-buyer-" + FUZZ_BUYERS.incrementAndGet();
                        assertThat(invalidOrder(probe).statusCode()).isEqualTo(400);
                        return redis.sync().exists("orders:rate:{buyer}:" + probe) == 1L;
                    });
            String flooder = "flooding-buyer-" + FUZZ_BUYERS.incrementAndGet();
            int held = 0;
            HttpResponse<String> refused = null;
            for (int i = 0; i < 40; i++) {
                HttpResponse<String> answer = invalidOrder(flooder);
                assertProblem(answer, "flood " + i);
                if (answer.statusCode() == 429) {
                    held++;
                    refused = answer;
                }
            }
            assertThat(held).as("a burst of 10 and 5 a second cannot take 40 in a row").isPositive();
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body()).contains("urn:flashstock:problem:too-many-orders").contains("\"scope\":\"buyer\"");
            assertThat(invalidOrder("another-buyer-" + FUZZ_BUYERS.incrementAndGet()).statusCode())
                    .as("another buyer is not held off, only refused for its quantity").isEqualTo(400);
            assertThat(redis.sync().exists("orders:rate:{buyer}:" + flooder)).as("the flooder's bucket, in Redis")
                    .isEqualTo(1L);
        } finally {
            client.shutdown();
        }
    }

    /** An order of the target SKU with quantity 0: refused by validation, after the limits, recording nothing. */
    private HttpResponse<String> invalidOrder(String buyer) {
        return send(HttpRequest.newBuilder(URI.create(services.order().url() + "/orders"))
                .header("Authorization", services.buyers().bearer(buyer))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":0}]}")));
    }

    /** A form body Tomcat cannot decode (a stray '%'), which random bodies find only now and then. */
    @Example
    void aFormBodyThatCannotBeDecodedIsAProblemOnBothServices() {
        String body = "{\"reservationId\":\"r\",\"userId\":\"a\",\"items\":[{\"skuId\":\"%\",\"quantity\":1}]}";
        for (String url : List.of(services.inventory().url() + "/reservations", services.order().url() + "/orders")) {
            assertProblem(send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Authorization", fuzzBuyer())
                    .POST(HttpRequest.BodyPublishers.ofString(body))), url + ": " + body);
        }
    }

    @Property(tries = 60)
    void ordersRefuseAnIdempotencyKeyThatCannotBeAnOrderId(@ForAll("hostileKeys") String key) {
        // a good order in every other respect: only the key is wrong, so nothing may be placed
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.order().url() + "/orders"))
                .header("Content-Type", "application/json")
                .header("Authorization", services.buyers().bearer("fuzz-key"))
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + quote(SKU)
                        + ",\"quantity\":1}]}"));

        assertProblem(send(request), "Idempotency-Key " + key);
    }

    /** Keys an HTTP client can send but no order id may be: short, long, odd characters, a leading '-' or '_'. */
    @Provide
    Arbitrary<String> hostileKeys() {
        return Arbitraries.oneOf(
                hostileIds().filter(k -> !k.isBlank() && k.chars().allMatch(c -> c > 0x20 && c < 0x7f)),
                Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(7),
                Arbitraries.strings().alpha().numeric().ofLength(65),
                Arbitraries.strings().alpha().ofMinLength(8).ofMaxLength(20).map(k -> "-" + k),
                Arbitraries.of("order 1234", "abc/def/ghi", "12345678;drop", "key%00key", "key.with.dots"));
    }

    // ---- generators -----------------------------------------------------------------------------------------

    /** Ids no API accepts: empty, too long, braces, colons, slashes, spaces, control and non-ASCII characters. */
    @Provide
    Arbitrary<String> hostileIds() {
        Arbitrary<String> fixed = Arbitraries.of("", " ", "a}:x", "{x}", "../../etc/passwd", "a/b", "a b", "x\u0000y",
                "é", "<script>", "a*", "%", "x".repeat(65), "hot-1\n", "inv:{" + SKU + "}");
        Arbitrary<String> withBadCharacter = Combinators.combine(
                Arbitraries.strings().alpha().numeric().ofMinLength(0).ofMaxLength(10),
                Arbitraries.of('{', '}', ':', '/', ' ', '*', '?', '#', '\\', '"', '\'', '\t', 'ü'),
                Arbitraries.strings().alpha().numeric().ofMinLength(0).ofMaxLength(10))
                .as((a, bad, b) -> a + bad + b);
        return Arbitraries.oneOf(fixed, withBadCharacter);
    }

    /** Acceptable ids: reused where one field must be fine so that another can be the hostile one. */
    private static Arbitrary<String> goodIds() {
        return Arbitraries.strings().withChars("abcxyz019._-").ofMinLength(1).ofMaxLength(12);
    }

    /** Quantities that are not a positive JSON integer of a sane size. */
    private static Arbitrary<String> hostileQuantities() {
        return Arbitraries.of("0", "-1", "1.5", "2.0", "\"2\"", "\"one\"", "1e3", "2147483648", "99999999999999999999",
                "null", "true", "[]", "{}", "1001", "-2147483649");
    }

    /** Bodies of POST /reservations that are bad in at least one place. */
    @Provide
    Arbitrary<String> reservationBodies() {
        Arbitrary<String> badLine = Combinators.combine(Arbitraries.oneOf(hostileIds(), goodIds()), hostileQuantities())
                .as((sku, q) -> "{\"skuId\":" + quote(sku) + ",\"quantity\":" + q + "}");
        Arbitrary<String> badSkuLine = hostileIds().map(sku -> "{\"skuId\":" + quote(sku) + ",\"quantity\":1}");
        Arbitrary<String> wellFormed = Combinators.combine(Arbitraries.oneOf(goodIds(), hostileIds()),
                        Arbitraries.oneOf(goodIds(), hostileIds()),
                        Arbitraries.oneOf(badLine, badSkuLine, Arbitraries.just("{\"skuId\":\"" + SKU
                                + "\",\"quantity\":1}")).list().ofMinSize(0).ofMaxSize(3))
                .as((reservation, user, lines) -> "{\"reservationId\":" + quote(reservation) + ",\"userId\":"
                        + quote(user) + ",\"items\":[" + String.join(",", lines) + "]}");
        return Arbitraries.oneOf(wellFormed, notJson(), tooManyLines());
    }

    /**
     * Bodies of POST /orders that are bad in at least one place (a valid order would change the books): a user named
     * in the body (the buyer comes from the token alone), a bad line, no lines, not JSON.
     */
    @Provide
    Arbitrary<String> orderBodies() {
        Arbitrary<String> namesAUser = Arbitraries.oneOf(goodIds(), hostileIds())
                .map(user -> "{\"userId\":" + quote(user) + ",\"items\":[{\"skuId\":\"" + SKU
                        + "\",\"quantity\":1}]}");
        Arbitrary<String> badItem = Arbitraries.oneOf(
                        Combinators.combine(Arbitraries.oneOf(goodIds(), hostileIds()), hostileQuantities())
                                .as((sku, q) -> "{\"skuId\":" + quote(sku) + ",\"quantity\":" + q + "}"),
                        hostileIds().map(sku -> "{\"skuId\":" + quote(sku) + ",\"quantity\":1}"))
                .map(item -> "{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}," + item + "]}");
        Arbitrary<String> noItems = Arbitraries.just("{\"items\":[]}");
        return Arbitraries.oneOf(namesAUser, badItem, noItems, notJson());
    }

    /**
     * {@code Authorization} headers that carry no good buyer token: none, other schemes, garbage, a token signed with
     * another key, expired, from another issuer, unsigned ({@code alg: none}), or for a subject that is no user id.
     */
    @Provide
    Arbitrary<String> authorizations() {
        Services services = EndToEnd.services();
        BuyerTokens buyers = services.buyers();
        BuyerTokens forger = BuyerTokens.generate();
        Instant now = Instant.now();
        String unsigned = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("{\"iss\":\"" + BuyerTokens.ISSUER + "\",\"sub\":\"fuzz\",\"exp\":"
                        + now.plusSeconds(3600).getEpochSecond() + "}").getBytes(StandardCharsets.UTF_8)) + ".";
        Arbitrary<String> fixed = Arbitraries.of("", "Bearer", "Bearer ", "Bearer x.y.z", "Basic ZnV6ejpmdXp6",
                "Bearer " + unsigned, forger.bearer("fuzz"),
                "Bearer " + buyers.token("fuzz", BuyerTokens.ISSUER, now.minusSeconds(7200), now.minusSeconds(3600)),
                "Bearer " + buyers.token("fuzz", "urn:someone-else", now, now.plusSeconds(3600)),
                "Bearer " + services.adminToken());
        Arbitrary<String> noUserId = hostileIds().filter(id -> !id.isEmpty())
                .map(id -> "Bearer " + buyers.token(id, BuyerTokens.ISSUER, now, now.plusSeconds(3600)));
        Arbitrary<String> garbage = Arbitraries.strings().ofMinLength(1).ofMaxLength(60).map(s -> "Bearer " + s);
        return Arbitraries.oneOf(fixed, noUserId, garbage)
                // what an HTTP client can send at all: visible ASCII and spaces (Java's client refuses the rest)
                .filter(x -> x.chars().allMatch(c -> c >= 0x20 && c < 0x7f));
    }

    private static Arbitrary<String> notJson() {
        return Arbitraries.oneOf(
                Arbitraries.of("", "{", "}", "[]", "null", "\"text\"", "42", "{\"items\":", "<xml/>", "{'a':1}",
                        "{\"userId\":\"u\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]", "\u0000"),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(40).filter(s -> !s.isBlank()));
    }

    private static Arbitrary<String> tooManyLines() {
        return Arbitraries.integers().between(21, 40).map(n -> {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                lines.add("{\"skuId\":\"" + SKU + "-" + i + "\",\"quantity\":1}");
            }
            return "{\"reservationId\":\"r-many\",\"userId\":\"u\",\"items\":[" + String.join(",", lines) + "]}";
        });
    }

    /** Absent, not an XID, or a well-formed XID the coordinator never opened. */
    @Provide
    Arbitrary<String> xids() {
        return Arbitraries.oneOf(
                Arbitraries.of("", " ", "a}:b:c", "x:y:z", "::", "127.0.0.1:18091", "127.0.0.1:x:1",
                        "127.0.0.1:18091:-1", "127.0.0.1:123456:1", "{tag}:1:1", "x".repeat(300)),
                Arbitraries.longs().between(1, Long.MAX_VALUE).map(n -> "127.0.0.1:18091:" + n),
                hostileIds().map(id -> id + ":18091:1"))
                // what an HTTP client can send at all: visible ASCII and spaces (Java's client refuses the rest)
                .filter(x -> x.chars().allMatch(c -> c >= 0x20 && c < 0x7f));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of("application/json", "application/json", "application/json", "text/plain",
                "application/xml", "application/x-www-form-urlencoded", "");
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.concurrent.atomic.AtomicLong FUZZ_BUYERS = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A good token of a buyer of its own for each request: one buyer sending every try would soon be held to its order
     * rate (429), and the body under test would never be read.
     */
    private String fuzzBuyer() {
        return services.buyers().bearer("fuzz-buyer-" + FUZZ_BUYERS.incrementAndGet());
    }

    private static void assertProblem(HttpResponse<String> answer, String input) {
        assertThat(answer.statusCode()).as("status for %s: %s", input, answer.body()).isBetween(400, 499);
        assertThat(answer.headers().firstValue("Content-Type")).as("content type for %s", input)
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode problem;
        try {
            problem = JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON for " + input + ": " + answer.body(), e);
        }
        assertThat(problem.path("type").asText()).as("problem type for %s", input)
                .startsWith("urn:flashstock:problem:");
        assertThat(problem.path("status").asInt()).isEqualTo(answer.statusCode());
    }

    /** Everything a request could have changed: Redis keys of the stock, the SKU's stock, MySQL's books. */
    static Map<String, Object> state() throws SQLException {
        Map<String, Object> state = new LinkedHashMap<>();
        Endpoints stack = SharedStack.endpoints();
        RedisClient client = RedisClient.create("redis://" + stack.redisHost() + ":" + stack.redisPort());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            Map<String, String> target = new TreeMap<>();
            List<String> keys = new ArrayList<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                var page = redis.sync().scan(cursor, ScanArgs.Builder.matches("inv:*").limit(1000));
                keys.addAll(page.getKeys());
                cursor = page;
            } while (!cursor.isFinished());
            // SKUs in Redis (their stock hashes, which never expire): a request that created one would show here;
            // every other key of other SKUs comes and goes with their own tests and retention
            state.put("redis SKUs", keys.stream().filter(k -> k.startsWith("inv:{") && k.endsWith("}")).count());
            for (String key : keys) {
                if (key.startsWith("inv:{" + SKU + "}")) {
                    String type = redis.sync().type(key);
                    target.put(key, type.equals("hash") ? new TreeMap<>(redis.sync().hgetall(key)).toString()
                            : type.equals("string") ? redis.sync().get(key) : type);
                }
            }
            state.put("redis " + SKU, target);
        } finally {
            client.shutdown();
        }
        // MySQL: the target SKU's row and ledger, how many SKUs exist, repairs, orders (other SKUs' ledgers may still
        // be filling from earlier tests' events, so they are left out)
        state.put("inventory", rows(stack, "inventory", "SELECT (SELECT COUNT(*) FROM sku_stock),"
                + " (SELECT CONCAT_WS('/', stocked, sold, reserved, allotment_available, allotment_incoming, allotment_sold,"
                + " version) FROM sku_stock WHERE sku_id = '" + SKU + "'),"
                + " (SELECT COUNT(*) FROM stock_ledger WHERE sku_id = '" + SKU + "'),"
                + " (SELECT COUNT(*) FROM stock_handover WHERE sku_id = '" + SKU + "'),"
                + " (SELECT COUNT(*) FROM repair_audit)"));
        state.put("orders", rows(stack, "orders", "SELECT (SELECT COUNT(*) FROM orders),"
                + " (SELECT COUNT(*) FROM order_line)"));
        return state;
    }

    private static List<String> rows(Endpoints stack, String database, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl(database), stack.dbUser(database),
                stack.dbPassword());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (r.next()) {
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    values.add(r.getString(i));
                }
            }
            return values;
        }
    }
}
