package io.github.flashstock.clients;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.github.flashstock.support.auth.ServiceSignature;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * inventory-service's HTTP API (docs/api.md), one instance: the operator's calls under the admin token (SKUs, stock
 * view, handovers, reconciliation), the buyer's one ({@link #available}) and the Try an order service makes
 * ({@link #reserve}), signed as a known service once {@link #signedAs} names one. Every call answers a typed value or
 * throws {@link ServiceProblem} (the service answered otherwise) or {@link ServiceUnreachable} (no answer).
 * Immutable: the {@code with...} methods return a copy.
 */
public final class InventoryApi {

    /** The header the Try's global transaction id travels in (Seata's {@code RootContext.KEY_XID}). */
    public static final String XID_HEADER = "TX_XID";

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(90);

    private final String url;
    private final String adminToken;
    private final Signer signer;
    private final Duration readTimeout;

    private record Signer(String caller, byte[] key, Clock clock) {
    }

    /** @param url the instance's base URL ({@code http://127.0.0.1:8081}); {@code adminToken} may be null */
    public InventoryApi(String url, String adminToken) {
        this(url, adminToken, null, READ_TIMEOUT);
    }

    private InventoryApi(String url, String adminToken, Signer signer, Duration readTimeout) {
        this.url = Objects.requireNonNull(url, "url");
        this.adminToken = adminToken;
        this.signer = signer;
        this.readTimeout = readTimeout;
    }

    /** This client, its Tries signed as {@code caller} with {@code key} ({@link ServiceSignature}). */
    public InventoryApi signedAs(String caller, byte[] key, Clock clock) {
        return new InventoryApi(url, adminToken, new Signer(caller, key.clone(), clock), readTimeout);
    }

    /** This client, its reads given up after {@code timeout} (10 s otherwise). */
    public InventoryApi withReadTimeout(Duration timeout) {
        return new InventoryApi(url, adminToken, signer, timeout);
    }

    public String url() {
        return url;
    }

    // ---- what goes in and comes out ----------------------------------------------------------------------------

    /** A new SKU; {@code perUserLimit} and {@code segments} may be null (no limit, the configured count). */
    public record NewSku(long stocked, Integer perUserLimit, Integer segments) {
    }

    public record CreatedSku(String skuId, long stocked, int segments) {
    }

    /** Redis's counts after a restock. */
    public record Restocked(String skuId, long stocked, long available) {
    }

    public record Reloaded(String skuId, long available, long reserved, long sold, long openReservations) {
    }

    /** One SKU in both stores, side by side; a store that does not know the SKU is null. */
    public record StockView(String skuId, RedisSide redis, MysqlSide mysql) {
    }

    public record RedisSide(long stocked, long available, long reserved, long sold, int perUserLimit, int segments,
                            List<Segment> segmentDetails) {
    }

    public record Segment(int index, long available, long reserved) {
    }

    /** MySQL's record; {@code allotment}: the units only the MySQL store sells, those on their way there, its sales. */
    public record MysqlSide(long stocked, long available, long reserved, long sold, Allotment allotment,
                            Integer perUserLimit, long version) {
    }

    public record Allotment(long available, long incoming, long sold) {
    }

    /** The units a Try could take now; null when only a Try can tell. */
    public record Available(String skuId, Long available) {
    }

    /** One line of a reservation. */
    public record Line(String skuId, int quantity) {
    }

    /** The body of a Try: who reserves what, under which id (the order's). */
    public record Reservation(String reservationId, String userId, List<Line> lines) {
    }

    /** The reservation as made, its lines merged per SKU. */
    public record Reserved(String reservationId, String userId, String xid, List<Line> lines,
                           String status) {

        /** The Try holds the units (state {@code TRIED}). */
        public boolean tried() {
            return "TRIED".equals(status);
        }
    }

    /** One move between Redis and a SKU's allotment; {@code moved} is null while it is PENDING. */
    public record Handover(String operationId, String skuId, String direction, long units, Long moved, String state,
                           String reason, Instant createdAt, Instant updatedAt) {
    }

    public record ReconciliationReport(String runId, Instant startedAt, Instant finishedAt, int skusChecked,
                                       List<Finding> findings) {
    }

    /** A disagreement a reconciliation found: its kind ({@code REDIS_MYSQL_DRIFT}, ...) and the amounts. */
    public record Finding(String kind, String skuId, JsonNode facts) {

        public Finding {
            facts = facts == null ? MissingNode.getInstance() : facts;
        }
    }

    // ---- calls --------------------------------------------------------------------------------------------------

    /** {@code PUT /admin/skus/{id}}: 201; {@code sku-exists} (409) when it exists. */
    public CreatedSku createSku(String skuId, NewSku sku) {
        return admin("/admin/skus/" + skuId, "PUT", sku, WRITE_TIMEOUT).expect(201).as(CreatedSku.class);
    }

    /** {@code POST /admin/skus/{id}/restock}; units added once per {@code idempotencyKey} (a random one when null). */
    public Restocked restock(String skuId, long quantity, String idempotencyKey) {
        HttpRequest.Builder request = adminRequest("/admin/skus/" + skuId + "/restock", "POST",
                new Quantity(quantity), WRITE_TIMEOUT);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return ServiceHttp.send(request.build()).expect(200).as(Restocked.class);
    }

    private record Quantity(long quantity) {
    }

    /** {@code POST /admin/skus/{id}/reload}: Redis rebuilt from MySQL and the open reservations. */
    public Reloaded reload(String skuId) {
        return admin("/admin/skus/" + skuId + "/reload", "POST", null, WRITE_TIMEOUT).expect(200).as(Reloaded.class);
    }

    /** {@code GET /skus/{id}/stock} (admin token). */
    public StockView stock(String skuId) {
        return admin("/skus/" + skuId + "/stock", "GET", null, readTimeout).expect(200).as(StockView.class);
    }

    /**
     * The stock view, asked again every 500 ms while the service answers 503 (a store coming back, the SKU being
     * rebuilt), for at most {@code patience}; then the last answer's problem.
     */
    public StockView stock(String skuId, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                return stock(skuId);
            } catch (ServiceProblem e) {
                if (e.status() != 503 || System.nanoTime() >= deadline) {
                    throw e;
                }
            }
            pause(Duration.ofMillis(500));
        }
    }

    /** {@code GET /skus/{id}/available}: no token needed. */
    public Available available(String skuId) {
        return ServiceHttp.send(ServiceHttp.request(url + "/skus/" + skuId + "/available", "GET", null, readTimeout)
                .build()).expect(200).as(Available.class);
    }

    /**
     * {@code POST /reservations}: the Try of {@code reservation} as a branch of the global transaction {@code xid},
     * signed as the service {@link #signedAs} named (unsigned without one: the service refuses it, 401
     * {@code unknown-caller}). 201, a replay too.
     */
    public Reserved reserve(String xid, Reservation reservation) {
        String body = ServiceHttp.write(reservation);
        HttpRequest.Builder request = ServiceHttp.request(url + "/reservations", "POST", body, WRITE_TIMEOUT);
        if (xid != null) {
            request.header(XID_HEADER, xid);
        }
        if (signer != null) {
            String path = URI.create(url + "/reservations").getRawPath();
            ServiceSignature.sign(signer.caller(), signer.key(), "POST", path, xid,
                    body.getBytes(StandardCharsets.UTF_8), signer.clock().instant()).writeTo(request::header);
        }
        return ServiceHttp.send(request.build()).expect(201).as(Reserved.class);
    }

    /** {@code POST /admin/reconciliation/runs}: a run now, and its report. */
    public ReconciliationReport runReconciliation() {
        return admin("/admin/reconciliation/runs", "POST", null, WRITE_TIMEOUT).expect(201)
                .as(ReconciliationReport.class);
    }

    /** {@code GET /admin/reconciliation/runs/latest}; {@code no-run} (404) before the first. */
    public ReconciliationReport latestReconciliation() {
        return admin("/admin/reconciliation/runs/latest", "GET", null, readTimeout).expect(200)
                .as(ReconciliationReport.class);
    }

    /**
     * {@code POST /admin/skus/{id}/handovers}: moves {@code units} {@code TO_MYSQL} or {@code TO_REDIS}, once per
     * {@code idempotencyKey} (a random one when null). The handover DONE (200) or PENDING (202).
     */
    public Handover handOver(String skuId, String direction, long units, String idempotencyKey) {
        HttpRequest.Builder request = adminRequest("/admin/skus/" + skuId + "/handovers", "POST",
                new HandoverRequest(direction, units), WRITE_TIMEOUT);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return ServiceHttp.send(request.build()).expect(200, 202).as(Handover.class);
    }

    private record HandoverRequest(String direction, long units) {
    }

    /** One page of an admin listing: its items, which page (from 1) of what size, and the listing's total. */
    public record Listing<T>(List<T> items, long page, long size, long total) {
    }

    private record HandoverListing(List<Handover> items, long page, long size, long total) {
    }

    /**
     * {@code GET /admin/skus/{id}/handovers}: page {@code page} (from 1) of {@code size} (1 to 500), newest first.
     */
    public Listing<Handover> handovers(String skuId, int page, int size) {
        HandoverListing listing = admin("/admin/skus/" + skuId + "/handovers?page=" + page + "&size=" + size, "GET",
                null, readTimeout).expect(200).as(HandoverListing.class);
        return new Listing<>(listing.items(), listing.page(), listing.size(), listing.total());
    }

    /**
     * {@code GET /actuator/metrics/{name}} with one tag ({@code key:value}), or none when {@code tag} is null: the
     * meter's first measurement (a gauge's value, a counter's count), or empty when the service has no such meter.
     */
    public java.util.OptionalDouble metric(String name, String tag) {
        ServiceHttp.Reply reply = admin("/actuator/metrics/" + name + (tag == null ? "" : "?tag=" + tag), "GET", null,
                readTimeout);
        if (reply.status() == 404) {
            return java.util.OptionalDouble.empty();
        }
        JsonNode measurements = reply.expect(200).as(JsonNode.class).path("measurements");
        return measurements.isEmpty() ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(measurements.get(0).path("value").asDouble());
    }

    /** As {@link #metric}, the measurement of one statistic ({@code COUNT}, {@code TOTAL}, {@code MAX}, {@code VALUE}). */
    public java.util.OptionalDouble metricStatistic(String name, String tag, String statistic) {
        ServiceHttp.Reply reply = admin("/actuator/metrics/" + name + (tag == null ? "" : "?tag=" + tag), "GET", null,
                readTimeout);
        if (reply.status() == 404) {
            return java.util.OptionalDouble.empty();
        }
        for (JsonNode m : reply.expect(200).as(JsonNode.class).path("measurements")) {
            if (statistic.equals(m.path("statistic").asText())) {
                return java.util.OptionalDouble.of(m.path("value").asDouble());
            }
        }
        return java.util.OptionalDouble.empty();
    }

    // ---- plumbing -----------------------------------------------------------------------------------------------

    private ServiceHttp.Reply admin(String path, String method, Object body, Duration timeout) {
        return ServiceHttp.send(adminRequest(path, method, body, timeout).build());
    }

    private HttpRequest.Builder adminRequest(String path, String method, Object body, Duration timeout) {
        HttpRequest.Builder request = ServiceHttp.request(url + path, method, body, timeout);
        if (adminToken != null) {
            request.header("Authorization", "Bearer " + adminToken);
        }
        return request;
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
