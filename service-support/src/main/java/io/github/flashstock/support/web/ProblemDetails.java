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

    /** The problem type name for an answer the framework made without one (its status says what went wrong). */
    public static String typeForStatus(int status) {
        return switch (status) {
            case 400 -> "malformed-request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 413 -> "payload-too-large";
            case 414 -> "uri-too-long";
            case 415 -> "unsupported-media-type";
            default -> "http-" + status;
        };
    }

    /** A short title for {@link #typeForStatus(int)}. */
    public static String titleForStatus(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "HTTP " + status : known.getReasonPhrase();
    }
}
