package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.inventory.InventoryUnavailable;
import io.github.flashstock.orderdemo.order.OrderLimitExceeded;
import io.github.flashstock.orderdemo.order.UnknownOrder;
import io.github.flashstock.support.web.BadInputAdvice;
import io.github.flashstock.support.web.ProblemDetails;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

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
        } else if (e.getCause() instanceof InventoryUnavailable) {
            problem = ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "inventory-unavailable",
                    "Inventory unavailable", e.getMessage());
        } else if (e.getCause() instanceof Faults.InjectedFailure) {
            problem = ProblemDetails.of(HttpStatus.INTERNAL_SERVER_ERROR, "injected-failure", "Injected failure",
                    e.getMessage());
        } else {
            log.error("order {} failed and was rolled back", e.orderId, e.getCause());
            problem = ProblemDetails.of(HttpStatus.INTERNAL_SERVER_ERROR, "order-failed", "Order failed",
                    "the order could not be placed and was rolled back");
        }
        problem.setProperty("orderId", e.orderId);
        problem.setInstance(URI.create("/orders"));
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler
    ProblemDetail tooLarge(OrderLimitExceeded e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "order-limit-exceeded", "Order limit exceeded", e.getMessage());
        p.setProperty("limit", e.limit());
        p.setProperty("requested", e.requested());
        return p;
    }

    @ExceptionHandler
    ProblemDetail unknown(UnknownOrder e) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.NOT_FOUND, "unknown-order", "Unknown order", e.getMessage());
        p.setProperty("orderId", e.orderId());
        return p;
    }

    @ExceptionHandler
    ProblemDetail badFault(Fault.Invalid e) {
        return ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }
}
