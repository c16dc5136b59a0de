package io.github.flashstock.inventory.reservation.web;

import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.reservation.ReservationLines;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRefused;
import io.github.flashstock.inventory.stock.web.Problems;
import io.github.flashstock.support.web.BadInputAdvice;
import io.github.flashstock.support.web.ProblemDetails;
import java.util.Map;
import org.apache.seata.common.exception.FrameworkException;
import org.apache.seata.core.exception.TransactionException;
import org.apache.seata.core.exception.TransactionExceptionCode;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Every refusal and every bad input, of any controller of this service, becomes a {@code ProblemDetail} with a
 * stable type and the facts.
 */
@RestControllerAdvice
class ProblemAdvice extends BadInputAdvice {

    /** Redis's breaker, where the context has one (a web slice without Redis has none: never "full" there). */
    private final ObjectProvider<RedisHealth> redis;

    ProblemAdvice(ObjectProvider<RedisHealth> redis) {
        this.redis = redis;
    }

    private boolean redisRefusesWrites() {
        RedisHealth health = redis.getIfAvailable();
        return health != null && health.refusingWrites();
    }

    /**
     * A refused Try: 409 for what the caller cannot change by waiting (stock, the purchase limit, a reservation
     * cancelled first, a sale closed), 404 for an unknown SKU, 503 with {@code Retry-After} for what passes (a stale
     * SKU being rebuilt, a busy MySQL store). The problem type is the refusal's code in kebab case, except where
     * noted.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> refused(TryRefused e) {
        TryOutcome.Refusal r = e.refusal();
        ProblemDetail p = switch (r.code()) {
            case INSUFFICIENT_STOCK -> {
                var s = (TryOutcome.InsufficientStock) r;
                yield with(ProblemDetails.of(HttpStatus.CONFLICT, "insufficient-stock", "Insufficient stock",
                        r.message()), Map.of("skuId", s.skuId(), "requested", s.requested(),
                        "available", s.available()));
            }
            case PURCHASE_LIMIT_EXCEEDED -> {
                var l = (TryOutcome.PurchaseLimitExceeded) r;
                yield with(ProblemDetails.of(HttpStatus.CONFLICT, "purchase-limit-exceeded", "Purchase limit exceeded",
                        r.message()), Map.of("skuId", l.skuId(), "limit", l.limit(),
                        "alreadyBought", l.alreadyBought()));
            }
            case RESERVATION_CANCELLED -> with(ProblemDetails.of(HttpStatus.CONFLICT, "reservation-cancelled",
                    "Reservation already cancelled", r.message()), Map.of("skuId", r.skuId()));
            case UNKNOWN_SKU -> Problems.unknownSku(r.skuId());
            case SALE_CLOSED -> Problems.saleClosed(r.skuId());
            case STALE_SKU -> with(ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "sku-rebuilding",
                    "SKU being rebuilt", r.message()), Map.of("skuId", r.skuId()));
            case MYSQL_STORE_BUSY -> {
                // Redis away because it refuses writes (full memory or disk): the operator's problem to fix, and
                // the caller's to know; a Redis away for any other reason, or none, leaves the MySQL store's answer
                ProblemDetail busy = redisRefusesWrites()
                        ? ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "redis-full", "Redis full",
                        "Redis refuses writes (its memory or its disk is full) and the MySQL store cannot take this"
                                + " reservation now: " + r.message())
                        : ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "mysql-store-busy",
                        "MySQL store busy", r.message());
                if (r.skuId() != null) {
                    busy.setProperty("skuId", r.skuId());
                }
                yield busy;
            }
            default -> throw new IllegalStateException("not a refusal: " + r.code());
        };
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(p.getStatus());
        if (p.getStatus() == HttpStatus.SERVICE_UNAVAILABLE.value()) {
            answer.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return answer.body(p);
    }

    @ExceptionHandler
    ProblemDetail missingTransaction(ReservationController.MissingTransaction e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "missing-transaction", "Missing global transaction", e.getMessage());
    }

    @ExceptionHandler
    ProblemDetail invalid(ReservationController.InvalidReservation e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @ExceptionHandler
    ProblemDetail invalidLines(ReservationLines.InvalidLines e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    /**
     * Registering the branch at the coordinator failed, before any stock moved. A transaction the coordinator does
     * not hold open (finished, timed out, never existed) is the caller's problem: 409 {@code transaction-not-active}.
     * Anything else (the coordinator unreachable, overloaded) is worth a retry: 503 {@code coordinator-unavailable}.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> coordinator(FrameworkException e) {
        TransactionException refusal = causeOf(e, TransactionException.class);
        if (refusal != null && (refusal.getCode() == TransactionExceptionCode.GlobalTransactionNotExist
                || refusal.getCode() == TransactionExceptionCode.GlobalTransactionNotActive
                || refusal.getCode() == TransactionExceptionCode.GlobalTransactionStatusInvalid)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body(ProblemDetails.of(HttpStatus.CONFLICT,
                    "transaction-not-active", "Global transaction not active", "the coordinator holds no open global"
                            + " transaction with this id (finished, timed out or never begun); nothing was reserved"));
        }
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
                .body(ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "coordinator-unavailable",
                        "Transaction coordinator unavailable", "the branch could not be registered with the"
                                + " coordinator; nothing was reserved; try again"));
    }

    /**
     * Redis or MySQL did not answer in time, or could not be reached (a node failing over, a connection being
     * re-established): worth a retry, never a 500. Whether the request took effect is not known; every write of
     * this API is idempotent (reservation ids, Idempotency-Key, create-if-absent), so repeating it is safe.
     */
    @ExceptionHandler({org.springframework.dao.TransientDataAccessException.class,
            org.springframework.dao.DataAccessResourceFailureException.class})
    ResponseEntity<ProblemDetail> storeUnavailable(org.springframework.dao.DataAccessException e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
                .body(ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Stock store unavailable",
                        "Redis or MySQL did not answer in time; the request may or may not have taken effect, and"
                                + " repeating it is safe"));
    }

    /**
     * A Redis call failed without a category Spring knows (Lettuce's own failures: the client refused a command while
     * it reconnects, the connection was lost under way): when it says Redis could not be reached, a 503 like
     * {@link #storeUnavailable}; any other (an error reply of a Redis that serves) stays a server error.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> redisFailure(org.springframework.data.redis.RedisSystemException e) {
        if (io.github.flashstock.inventory.redis.RedisFailures.unreachable(e)) {
            return storeUnavailable(e);
        }
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(ProblemDetails.of(
                HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error", "Redis refused a command"));
    }

    private static ProblemDetail with(ProblemDetail p, Map<String, Object> facts) {
        facts.forEach(p::setProperty);
        return p;
    }
}
