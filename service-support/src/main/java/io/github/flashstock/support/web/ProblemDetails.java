package io.github.flashstock.support.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** Builds the problems both services answer with; their types are {@code urn:flashstock:problem:<name>}. */
public final class ProblemDetails {

    public static final String TYPE_PREFIX = "urn:flashstock:problem:";

    private ProblemDetails() {
    }

    public static ProblemDetail of(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(TYPE_PREFIX + type));
        p.setTitle(title);
        return p;
    }
}
