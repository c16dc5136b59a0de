package io.github.flashstock.orderdemo.inventory;

import tools.jackson.databind.json.JsonMapper;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * Reserves stock in the inventory service as a branch of the global transaction bound to the calling thread.
 * Connect and read timeouts are explicit ({@link InventoryClientSettings}); I/O failures and 5xx answers are retried
 * (resilience4j retry {@code inventory}) with the <em>same</em> reservation id, which the inventory fence turns into a
 * replay: one deduction however often the call is repeated.
 */
@Component
public class InventoryClient {

    private final RestClient rest;
    private final Retry retry;
    private final JsonMapper json;

    InventoryClient(RestClient.Builder inventoryRestClientBuilder, InventoryClientSettings settings,
                    RetryRegistry retries, JsonMapper json) {
        this.rest = inventoryRestClientBuilder.baseUrl("http://" + settings.serviceId()).build();
        this.retry = retries.retry("inventory");
        this.json = json;
    }

    record ReservationRequest(String reservationId, String userId, List<ReservationItem> lines) {
    }

    /**
     * @param loseFirstAnswer test-only: treat the first successful answer as lost in transit, forcing a retry
     * @throws InventoryRefused     the inventory service refused (4xx problem, kept as it came)
     * @throws InventoryUnavailable it could not be reached or failed after the retries
     */
    public void reserve(String reservationId, String userId, List<ReservationItem> items, boolean loseFirstAnswer) {
        ReservationRequest request = new ReservationRequest(reservationId, userId, items);
        AtomicInteger calls = new AtomicInteger();
        try {
            retry.executeRunnable(() -> {
                call(request);
                if (loseFirstAnswer && calls.incrementAndGet() == 1) {
                    throw new ResourceAccessException("injected: the answer of the first reservation call was lost");
                }
            });
        } catch (ResourceAccessException e) {
            throw new InventoryUnavailable("inventory service unreachable: " + e.getMessage(), e);
        }
    }

    private void call(ReservationRequest request) {
        rest.post().uri("/reservations")
                .contentType(MediaType.APPLICATION_JSON)
                .body(request)
                .retrieve()
                .onStatus(status -> status.is4xxClientError(), (req, response) -> {
                    throw new InventoryRefused(problem(response.getStatusCode().value(), response.getBody().readAllBytes()));
                })
                .onStatus(status -> status.is5xxServerError(), (req, response) -> {
                    ProblemDetail problem = problem(response.getStatusCode().value(),
                            response.getBody().readNBytes(16 * 1024));
                    String name = problemName(problem);
                    throw new InventoryUnavailable("inventory service answered " + response.getStatusCode()
                            + (name == null ? "" : " " + name + (problem.getDetail() == null ? ""
                            : ": " + problem.getDetail())), null, name);
                })
                .toBodilessEntity();
    }

    /** What {@code GET /skus/{skuId}/available} answers. */
    record Available(String skuId, Long available) {
    }

    /**
     * The units of the SKU a Try could take now, read without a transaction (one call, no retry).
     *
     * @return empty when the inventory service cannot tell (only a Try can) or the call failed: the caller goes on
     *         with the Try
     */
    public OptionalLong available(String skuId) {
        try {
            Available answer = rest.get().uri("/skus/{skuId}/available", skuId).retrieve().body(Available.class);
            return answer == null || answer.available() == null ? OptionalLong.empty()
                    : OptionalLong.of(answer.available());
        } catch (RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** A problem's name, the last segment of its type ({@code urn:flashstock:problem:redis-full}), or null. */
    static String problemName(ProblemDetail problem) {
        if (problem.getType() == null || "about:blank".equals(problem.getType().toString())) {
            return null;
        }
        String type = problem.getType().toString();
        String name = type.substring(type.lastIndexOf(':') + 1);
        // a name only of what a problem type may hold here: never a stranger's text in the buyer's answer
        return name.matches("[a-z0-9-]{1,64}") ? name : null;
    }

    private ProblemDetail problem(int status, byte[] body) {
        try {
            ProblemDetail problem = json.readValue(body, ProblemDetail.class);
            if (problem.getStatus() == 0) {
                problem.setStatus(status);
            }
            return problem;
        } catch (tools.jackson.core.JacksonException e) {
            return ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(status),
                    "inventory service answered " + status + " without a problem body");
        }
    }
}
