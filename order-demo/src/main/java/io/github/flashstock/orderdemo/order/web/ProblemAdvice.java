package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.inventory.InventoryUnavailable;
import io.github.flashstock.orderdemo.order.OrderLimitExceeded;
import io.github.flashstock.orderdemo.order.UnknownOrder;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Every failure becomes a {@code ProblemDetail} with a stable {@code urn:flashstock:problem:*} type. */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    /** Placement rolled back: the cause decides the answer; the order id is added to every one. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> failed(OrderController.OrderFailed e) {
        ProblemDetail problem;
        if (e.getCause() instanceof InventoryRefused refused) {
            problem = refused.problem();
        } else if (e.getCause() instanceof InventoryUnavailable) {
            problem = of(HttpStatus.SERVICE_UNAVAILABLE, "inventory-unavailable", "Inventory unavailable",
                    e.getMessage());
        } else if (e.getCause() instanceof Faults.InjectedFailure) {
            problem = of(HttpStatus.INTERNAL_SERVER_ERROR, "injected-failure", "Injected failure", e.getMessage());
        } else {
            log.error("order {} failed and was rolled back", e.orderId, e.getCause());
            problem = of(HttpStatus.INTERNAL_SERVER_ERROR, "order-failed", "Order failed",
                    "the order could not be placed and was rolled back");
        }
        problem.setProperty("orderId", e.orderId);
        problem.setInstance(URI.create("/orders"));
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler
    ProblemDetail tooLarge(OrderLimitExceeded e) {
        ProblemDetail p = of(HttpStatus.CONFLICT, "order-limit-exceeded", "Order limit exceeded", e.getMessage());
        p.setProperty("limit", e.limit());
        p.setProperty("requested", e.requested());
        return p;
    }

    @ExceptionHandler
    ProblemDetail unknown(UnknownOrder e) {
        ProblemDetail p = of(HttpStatus.NOT_FOUND, "unknown-order", "Unknown order", e.getMessage());
        p.setProperty("orderId", e.orderId());
        return p;
    }

    @ExceptionHandler
    ProblemDetail badFault(Fault.Invalid e) {
        return of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return invalid(e.getBindingResult().getFieldErrors().stream()
                .map(f -> f.getField() + ": " + f.getDefaultMessage()).sorted().toList());
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
                                                                            HttpHeaders headers, HttpStatusCode status,
                                                                            WebRequest request) {
        return invalid(e.getAllErrors().stream().map(MessageSourceResolvable::getDefaultMessage).sorted().toList());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return invalid(List.of("the body is not a valid order: " + e.getMostSpecificCause().getMessage()));
    }

    private static ResponseEntity<Object> invalid(List<String> errors) {
        ProblemDetail p = of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", String.join("; ", errors));
        p.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(p);
    }

    static ProblemDetail of(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("urn:flashstock:problem:" + type));
        p.setTitle(title);
        return p;
    }
}
