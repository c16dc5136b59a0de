package io.github.flashstock.inventory.reservation.web;

import io.github.flashstock.inventory.reservation.InsufficientStock;
import io.github.flashstock.inventory.reservation.PurchaseLimitExceeded;
import io.github.flashstock.inventory.reservation.ReservationCancelled;
import io.github.flashstock.inventory.reservation.UnknownSku;
import io.github.flashstock.inventory.stock.web.Problems;
import java.util.List;
import java.util.Map;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every refusal and every bad input, of any controller of this service, becomes a {@code ProblemDetail} with a
 * stable type and the facts.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    @ExceptionHandler
    ProblemDetail insufficient(InsufficientStock e) {
        return with(Problems.of(HttpStatus.CONFLICT, "insufficient-stock", "Insufficient stock", e.getMessage()),
                Map.of("skuId", e.skuId(), "requested", e.requested(), "available", e.available()));
    }

    @ExceptionHandler
    ProblemDetail limit(PurchaseLimitExceeded e) {
        return with(Problems.of(HttpStatus.CONFLICT, "purchase-limit-exceeded", "Purchase limit exceeded",
                e.getMessage()), Map.of("skuId", e.skuId(), "limit", e.limit(), "alreadyBought", e.alreadyBought()));
    }

    @ExceptionHandler
    ProblemDetail cancelled(ReservationCancelled e) {
        return with(Problems.of(HttpStatus.CONFLICT, "reservation-cancelled", "Reservation already cancelled",
                e.getMessage()), Map.of("skuId", e.skuId()));
    }

    @ExceptionHandler
    ProblemDetail unknown(UnknownSku e) {
        return Problems.unknownSku(e.skuId());
    }

    @ExceptionHandler
    ProblemDetail missingTransaction(ReservationController.MissingTransaction e) {
        return Problems.of(HttpStatus.BAD_REQUEST, "missing-transaction", "Missing global transaction", e.getMessage());
    }

    @ExceptionHandler
    ProblemDetail invalid(ReservationController.InvalidReservation e) {
        return Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return invalidRequest(e.getBindingResult().getFieldErrors().stream()
                .map(f -> f.getField() + ": " + f.getDefaultMessage()).sorted().toList());
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
                                                                            HttpHeaders headers, HttpStatusCode status,
                                                                            WebRequest request) {
        return invalidRequest(e.getAllErrors().stream().map(MessageSourceResolvable::getDefaultMessage).sorted().toList());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return ResponseEntity.badRequest().body(Problems.of(HttpStatus.BAD_REQUEST, "malformed-request",
                "Malformed request", "the body is not valid JSON of the expected shape (or a number is out of range)"));
    }

    /** 400 {@code invalid-request} listing every violated constraint. */
    private static ResponseEntity<Object> invalidRequest(List<String> errors) {
        ProblemDetail p = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                String.join("; ", errors));
        p.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(p);
    }

    private static ProblemDetail with(ProblemDetail p, Map<String, Object> facts) {
        facts.forEach(p::setProperty);
        return p;
    }
}
