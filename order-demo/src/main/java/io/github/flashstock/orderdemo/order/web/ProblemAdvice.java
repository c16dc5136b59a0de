package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.inventory.InventoryUnavailable;
import io.github.flashstock.orderdemo.order.CoordinatorFailures;
import io.github.flashstock.orderdemo.order.OrderLimitExceeded;
import io.github.flashstock.orderdemo.order.UnknownOrder;
import io.github.flashstock.support.web.BadInputAdvice;
import io.github.flashstock.support.web.ProblemDetails;
import java.net.URI;
import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** Every failure becomes a {@code ProblemDetail} with a stable type; bad input as in {@link BadInputAdvice}. */
@RestControllerAdvice
class ProblemAdvice extends BadInputAdvice {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    /** Placement rolled back: the cause decides the answer; the order id is added to every one. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> failed(OrderController.OrderFailed e) {
        ProblemDetail problem;
        if (e.getCause() instanceof InventoryRefused refused) {
            problem = refused.problem();
        } else if (e.getCause() instanceof InventoryUnavailable unavailable) {
            problem = ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "inventory-unavailable",
                    "Inventory unavailable", e.getMessage());
            if (unavailable.inventoryProblem() != null) {
                // why the inventory could not take it (redis-full, mysql-store-busy, ...), as it said
                problem.setProperty("inventoryProblem", unavailable.inventoryProblem());
            }
            return retryLater(problem, e.orderId);
        } else if (e.getCause() instanceof Faults.InjectedFailure) {
            problem = ProblemDetails.of(HttpStatus.INTERNAL_SERVER_ERROR, "injected-failure", "Injected failure",
                    e.getMessage());
        } else if (CoordinatorFailures.is(e)) {
            log.warn("order {} not placed: the transaction coordinator failed", e.orderId, e.getCause());
            problem = ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "coordinator-unavailable",
                    "Transaction coordinator unavailable", "the order was not placed; the transaction coordinator"
                            + " could not be reached");
            return retryLater(problem, e.orderId);
        } else if (databaseAway(e)) {
            log.warn("order {} not placed: the order database failed", e.orderId, e.getCause());
            problem = ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "database-unavailable",
                    "Order database unavailable", "the order was not placed; the database could not be reached");
            return retryLater(problem, e.orderId);
        } else {
            log.error("order {} failed and was not placed", e.orderId, e.getCause());
            problem = ProblemDetails.of(HttpStatus.INTERNAL_SERVER_ERROR, "order-failed", "Order failed",
                    "the order was not placed (it was rolled back, or never written)");
        }
        problem.setProperty("orderId", e.orderId);
        problem.setInstance(URI.create("/orders"));
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    /** The placement failed and its outcome cannot be read now: poll the order. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> unknownOutcome(OrderController.OutcomeUnknown e) {
        log.warn("order {}: placement failed and its outcome cannot be read now", e.orderId, e.getCause());
        ProblemDetail problem = ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "order-outcome-unknown",
                "Order outcome unknown", "the order may or may not have been placed; ask GET /orders/" + e.orderId
                        + " later (404 there means it was not placed)");
        ResponseEntity<ProblemDetail> answer = retryLater(problem, e.orderId);
        return ResponseEntity.status(answer.getStatusCode()).headers(answer.getHeaders())
                .location(URI.create("/orders/" + e.orderId)).body(answer.getBody());
    }

    /**
     * True when the order database could not be reached or dropped the connection: whatever was under way was not
     * written, and trying again later is the right advice. Spring reports that in several shapes: a transaction
     * that cannot begin, a connection that cannot be had, one that broke in the middle (SQLSTATE 08).
     */
    static boolean databaseAway(Throwable e) {
        if (causeOf(e, TransientDataAccessException.class) != null
                || causeOf(e, DataAccessResourceFailureException.class) != null
                || causeOf(e, RecoverableDataAccessException.class) != null
                || causeOf(e, CannotCreateTransactionException.class) != null) {
            return true;
        }
        // anything else carrying a connection failure underneath: SQLSTATE class 08, or the JDBC types for it; and a
        // local commit or rollback that failed at the JDBC level (TransactionSystemException "JDBC rollback failed",
        // its cause the pool's "Connection is closed"): the connection is gone, whatever the first failure was
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.springframework.transaction.TransactionSystemException tse
                    && (tse.getCause() instanceof java.sql.SQLException
                    || (tse.getApplicationException() != null && databaseAway(tse.getApplicationException())))) {
                return true;
            }
            if (t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLRecoverableException
                    || (t instanceof java.sql.SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("08"))) {
                return true;
            }
        }
        return false;
    }

    /** A read or write outside a placement (the order page) that met the database away. */
    @ExceptionHandler({DataAccessException.class, CannotCreateTransactionException.class})
    ResponseEntity<ProblemDetail> databaseFailed(RuntimeException e) {
        if (!databaseAway(e)) {
            log.error("order database failure", e);
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(ProblemDetails.of(
                    HttpStatus.INTERNAL_SERVER_ERROR, "database-error", "Order database error",
                    "the order database refused the request"));
        }
        log.warn("order database unavailable: {}", e.toString());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "2")
                .body(ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "database-unavailable",
                        "Order database unavailable", "the order database could not be reached; nothing changed"));
    }

    private static ResponseEntity<ProblemDetail> retryLater(ProblemDetail problem, String orderId) {
        problem.setProperty("orderId", orderId);
        problem.setInstance(URI.create("/orders"));
        return ResponseEntity.status(problem.getStatus()).header(HttpHeaders.RETRY_AFTER, "2").body(problem);
    }


    @ExceptionHandler
    ProblemDetail tooLarge(OrderLimitExceeded e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "order-limit-exceeded", "Order limit exceeded", e.getMessage());
        p.setProperty("limit", e.limit());
        p.setProperty("requested", e.requested());
        return p;
    }

    /**
     * A body with a field no request has: 400 {@code invalid-request} naming it. {@code userId} is the one old callers
     * send: the buyer now comes from the token, and a body that still names one is refused rather than ignored.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        UnrecognizedPropertyException unknown = causeOf(e, UnrecognizedPropertyException.class);
        if (unknown == null) {
            return super.handleHttpMessageNotReadable(e, headers, status, request);
        }
        String field = unknown.getPropertyName();
        return invalidRequest(List.of(field + ": unknown field" + ("userId".equals(field)
                ? " (the buyer is the subject of the bearer token, never part of the body)" : "")));
    }

    @ExceptionHandler
    ProblemDetail anotherBuyers(OrderController.OrderOfAnotherBuyer e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.FORBIDDEN, "order-of-another-buyer", "Order of another buyer",
                "only the buyer who placed an order may read it");
        p.setProperty("orderId", e.orderId);
        return p;
    }

    @ExceptionHandler
    ProblemDetail unknown(UnknownOrder e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.NOT_FOUND, "unknown-order", "Unknown order", e.getMessage());
        p.setProperty("orderId", e.orderId());
        return p;
    }

    @ExceptionHandler
    ProblemDetail badKey(OrderController.InvalidIdempotencyKey e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @ExceptionHandler
    ProblemDetail keyReused(OrderController.KeyReused e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.UNPROCESSABLE_ENTITY, "idempotency-key-reused",
                "Idempotency-Key reused", e.getMessage());
        p.setProperty("orderId", e.orderId);
        return p;
    }

    @ExceptionHandler
    ProblemDetail earlierCancelled(OrderController.EarlierCancelled e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "order-cancelled", "Order cancelled",
                e.getMessage());
        p.setProperty("orderId", e.orderId);
        return p;
    }

    @ExceptionHandler
    ProblemDetail badFault(Fault.Invalid e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }
}
