package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Every route of both services, spelled the ways a server may read as the same route: path parameters
 * ({@code ;x=1}), %-encoded letters and slashes, {@code //}, {@code /./}, {@code /x/..}, another case, a trailing slash,
 * an encoded backslash or percent. Sent as raw bytes, with no credentials at all, a spelling gets the decision the
 * route's own spelling gets (a public read answers alike) or a refusal; it never reaches a handler of a route that
 * needs credentials: every answer to those is a 4xx problem of the security layer, never the handler's own (a 409 of
 * the transaction, a 400 of the body), never a 2xx, never a 5xx. Nothing changes in either store (the target SKU's
 * keys and rows, the SKUs and the counts of the tables, as {@link HostileInputIT} reads them).
 */
class PathSpellingsIT {

    private static final String SKU = "hostile-target";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the security layer answers a caller without credentials with: nothing a handler answers. */
    private static final Set<String> REFUSALS = Set.of("unknown-caller", "admin-token-required", "buyer-token-required",
            "forbidden", "malformed-request", "not-found", "method-not-allowed", "unauthorized");

    /** A route: which service, its method and canonical path, whether it is open to anyone, and a body. */
    record Route(String service, String method, String path, boolean open, String body) {
        @Override
        public String toString() {
            return service + " " + method + " " + path;
        }
    }

    private static final String RESERVATION = "{\"reservationId\":\"spelled-1\",\"userId\":\"mallory\",\"lines\":"
            + "[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}";
    private static final List<Route> ROUTES = List.of(
            new Route("inventory", "POST", "/reservations", false, RESERVATION),
            new Route("inventory", "GET", "/skus/" + SKU + "/stock", false, null),
            new Route("inventory", "GET", "/skus/" + SKU + "/available", true, null),
            new Route("inventory", "GET", "/admin/skus", false, null),
            new Route("inventory", "PUT", "/admin/skus/" + SKU, false, "{\"stocked\":5,\"segments\":1}"),
            new Route("inventory", "POST", "/admin/skus/" + SKU + "/restock", false, "{\"units\":5}"),
            new Route("inventory", "PUT", "/admin/skus/" + SKU + "/limit", false, "{\"perUserLimit\":1}"),
            new Route("inventory", "POST", "/admin/skus/" + SKU + "/reload", false, null),
            new Route("inventory", "POST", "/admin/skus/" + SKU + "/handovers", false,
                    "{\"direction\":\"TO_MYSQL\",\"units\":1}"),
            new Route("inventory", "PUT", "/admin/skus/" + SKU + "/settings", false, "{\"segments\":3}"),
            new Route("inventory", "GET", "/admin/handovers/pending", false, null),
            new Route("inventory", "POST", "/admin/reconciliation/runs", false, null),
            new Route("inventory", "GET", "/admin/console/instance", false, null),
            new Route("inventory", "GET", "/admin/console/overview", false, null),
            new Route("inventory", "GET", "/actuator/prometheus", false, null),
            new Route("inventory", "POST", "/actuator/refresh", false, null),
            new Route("inventory", "GET", "/actuator/health", true, null),
            new Route("order-demo", "POST", "/orders", false,
                    "{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}"),
            new Route("order-demo", "GET", "/orders/o-1", false, null),
            new Route("order-demo", "GET", "/admin/orders", false, null),
            new Route("order-demo", "GET", "/actuator/metrics", false, null),
            new Route("order-demo", "POST", "/actuator/refresh", false, null));

    /** The canonical spelling's answer, by route: sent once. */
    private static final Map<Route, Answer> CANONICAL = new ConcurrentHashMap<>();

    private Services services;
    private Map<String, Object> before;

    record Answer(int status, String type) {
    }

    @BeforeProperty
    void snapshot() throws Exception {
        services = EndToEnd.services();
        Http.Reply created = EndToEnd.http().createSku(SKU, 100, 5);
        assertThat(created.status()).isIn(201, 409);
        before = state();
    }

    @AfterProperty
    void nothingChanged() throws Exception {
        assertThat(state()).isEqualTo(before);
    }

    private static Map<String, Object> state() throws Exception {
        return HostileInputIT.state();
    }

    @Property(tries = 600)
    void everySpellingOfARouteGetsItsDecisionOrARefusalAndNeverAHandlerUnauthenticated(
            @ForAll("routes") Route route, @ForAll("spellings") Spelling spelling) {
        String spelled = spelling.apply(route.path());
        Answer canonical = CANONICAL.computeIfAbsent(route, r -> send(r, r.path()));
        Answer answer = send(route, spelled);
        String what = route + " spelled " + spelled + " (canonically " + canonical + ")";

        if (route.open()) {
            assertThat(canonical.status()).as(what).isBetween(200, 299);
            if (answer.status() != canonical.status()) {
                assertThat(answer.status()).as(what).isBetween(400, 499);
                assertThat(REFUSALS).as(what + ": " + answer).contains(answer.type());
            }
        } else {
            assertThat(canonical.status()).as(what).isIn(401, 403);
            assertThat(answer.status()).as(what + ": " + answer).isBetween(400, 499);
            assertThat(REFUSALS).as(what + ": " + answer).contains(answer.type());
        }
    }

    @Provide
    Arbitrary<Route> routes() {
        return Arbitraries.of(ROUTES);
    }

    /** One way to spell a path otherwise, at a position the generator picks. */
    record Spelling(String kind, int at) {

        String apply(String path) {
            List<Integer> slashes = new java.util.ArrayList<>();
            List<Integer> letters = new java.util.ArrayList<>();
            for (int i = 0; i < path.length(); i++) {
                if (path.charAt(i) == '/') {
                    slashes.add(i);
                } else if (Character.isLetter(path.charAt(i))) {
                    letters.add(i);
                }
            }
            int slash = slashes.get(Math.floorMod(at, slashes.size()));
            int segmentEnd = path.indexOf('/', slash + 1) < 0 ? path.length() : path.indexOf('/', slash + 1);
            int letter = letters.get(Math.floorMod(at, letters.size()));
            return switch (kind) {
                case "path-parameter" -> path.substring(0, segmentEnd) + ";x=1" + path.substring(segmentEnd);
                case "session-parameter" -> path.substring(0, segmentEnd) + ";jsessionid=x" + path.substring(segmentEnd);
                case "empty-parameter" -> path.substring(0, segmentEnd) + ";" + path.substring(segmentEnd);
                case "encoded-letter" -> path.substring(0, letter) + String.format("%%%02X", (int) path.charAt(letter))
                        + path.substring(letter + 1);
                case "encoded-letter-lower" -> path.substring(0, letter)
                        + String.format("%%%02x", (int) path.charAt(letter)) + path.substring(letter + 1);
                case "encoded-slash" -> slash == 0 ? "%2F" + path.substring(1)
                        : path.substring(0, slash) + "%2F" + path.substring(slash + 1);
                case "double-slash" -> path.substring(0, slash) + "/" + path.substring(slash);
                case "dot-segment" -> path.substring(0, slash) + "/." + path.substring(slash);
                case "dot-dot-segment" -> path.substring(0, slash) + "/x/.." + path.substring(slash);
                case "encoded-dot-dot" -> path.substring(0, slash) + "/x/%2e%2e" + path.substring(slash);
                case "upper-case" -> path.substring(0, letter) + Character.toUpperCase(path.charAt(letter))
                        + path.substring(letter + 1);
                case "trailing-slash" -> path + "/";
                case "encoded-backslash" -> path.substring(0, slash) + "%5C" + path.substring(slash + 1);
                case "encoded-percent" -> path.substring(0, letter) + "%25" + path.substring(letter);
                case "query" -> path + "?x=1";
                default -> throw new IllegalArgumentException(kind);
            };
        }
    }

    @Provide
    Arbitrary<Spelling> spellings() {
        return Combinators.combine(Arbitraries.of("path-parameter", "session-parameter", "empty-parameter",
                        "encoded-letter", "encoded-letter-lower", "encoded-slash", "double-slash", "dot-segment",
                        "dot-dot-segment", "encoded-dot-dot", "upper-case", "trailing-slash", "encoded-backslash",
                        "encoded-percent", "query"),
                Arbitraries.integers().between(0, 50)).as(Spelling::new);
    }

    /** Sends the request as these bytes, without credentials (a reservation with a well-formed XID, unsigned). */
    private Answer send(Route route, String target) {
        URI base = URI.create(route.service().equals("inventory") ? services.inventory().url()
                : services.order().url());
        byte[] body = route.body() == null ? new byte[0] : route.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(route.method()).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n")
                .append("Connection: close\r\n");
        if (route.body() != null || !route.method().equals("GET")) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        if (route.path().equals("/reservations")) {
            head.append("TX_XID: 127.0.0.1:18091:1\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return parse(socket.getInputStream(), route + " " + target);
        } catch (IOException e) {
            throw new UncheckedIOException(route + " " + target, e);
        }
    }

    private static Answer parse(InputStream in, String what) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        String text = bytes.toString(StandardCharsets.UTF_8);
        int status = Integer.parseInt(text.substring(9, 12));
        int split = text.indexOf("\r\n\r\n");
        String headers = text.substring(0, split).toLowerCase();
        String body = text.substring(split + 4);
        if (headers.contains("transfer-encoding: chunked")) {
            body = unchunked(body);
        }
        if (!headers.contains("content-type: application/problem+json")) {
            assertThat(status).as("%s answered %s without a problem: %s", what, status, body).isBetween(200, 299);
            return new Answer(status, null);
        }
        JsonNode problem = JSON.readTree(body);
        assertThat(problem.path("status").asInt()).as(what).isEqualTo(status);
        return new Answer(status, problem.path("type").asText().replace("urn:flashstock:problem:", ""));
    }

    private static String unchunked(String chunked) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, eol).trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(chunked, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }
}
