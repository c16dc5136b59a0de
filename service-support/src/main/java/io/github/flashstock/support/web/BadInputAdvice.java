package io.github.flashstock.support.web;

import java.net.URI;
import java.util.List;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Bad input, answered the same way by both services: 400 {@code invalid-request} listing every violated constraint
 * (property {@code errors}), 400 {@code malformed-request} for a body that is not JSON of the expected shape. Each
 * service's {@code @RestControllerAdvice} extends this and adds its own refusals.
 */
public abstract class BadInputAdvice extends ResponseEntityExceptionHandler {

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
        // a body's constraint is a field error, named as handleMethodArgumentNotValid names it; a parameter's message
        // names the parameter itself (Paging's rules)
        return invalidRequest(e.getAllErrors().stream().map(r -> r instanceof FieldError f
                ? f.getField() + ": " + f.getDefaultMessage() : r.getDefaultMessage()).sorted().toList());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        BodySizeLimit.BodyTooLarge tooLarge = causeOf(e, BodySizeLimit.BodyTooLarge.class);
        if (tooLarge != null) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(ProblemDetails.of(
                    HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large", tooLarge.getMessage()));
        }
        return ResponseEntity.badRequest().body(ProblemDetails.of(HttpStatus.BAD_REQUEST, "malformed-request",
                "Malformed request", "the body is not valid JSON of the expected shape (or a number is out of range)"));
    }

    /**
     * A query parameter (or header, or path part) that cannot be read as its type: 400 {@code invalid-request} naming
     * it, as for a value out of range. For a number, {@code page=abc} is "not a whole number" and {@code page=99999999999}
     * "out of range".
     */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String name = e.getPropertyName() == null ? "a parameter" : e.getPropertyName();
        Class<?> type = e.getRequiredType();
        if (type != null && (Number.class.isAssignableFrom(type) || type == int.class || type == long.class)) {
            boolean digits = e.getValue() instanceof String text && text.trim().matches("[+-]?\\d+");
            return invalidRequest(List.of(name + (digits ? ": out of range" : ": must be a whole number")));
        }
        return invalidRequest(List.of(name + ": not a valid value"));
    }

    /**
     * A form-encoded body Tomcat cannot decode (a {@code %} not followed by two hex digits). Spring reads a form POST's
     * body through the request parameters, and Tomcat 11 throws when it cannot parse them (Tomcat 10 dropped such
     * parameters silently); without this handler the exception reaches the container's error page.
     */
    @ExceptionHandler(InvalidParameterException.class)
    protected ResponseEntity<Object> handleUndecodableParameters(InvalidParameterException e) {
        return ResponseEntity.badRequest().body(ProblemDetails.of(HttpStatus.BAD_REQUEST, "malformed-request",
                "Malformed request", "the request's form parameters cannot be decoded"));
    }

    /**
     * Every problem the framework answers with on its own (an unsupported media type, a missing header, an unknown
     * path, a wrong method) gets a type of ours instead of {@code about:blank}.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode status,
                                                          WebRequest request) {
        if (body instanceof ProblemDetail problem
                && (problem.getType() == null || "about:blank".equals(problem.getType().toString()))) {
            problem.setType(URI.create(ProblemDetails.TYPE_PREFIX + ProblemDetails.typeForStatus(status.value())));
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    /** The first exception of the given type in {@code e}'s cause chain ({@code e} included), or null. */
    protected static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /** 400 {@code invalid-request} listing every violated constraint; also for a check a controller makes itself. */
    public static ResponseEntity<Object> invalidRequest(List<String> errors) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                String.join("; ", errors));
        p.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(p);
    }
}
