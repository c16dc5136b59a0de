package io.github.flashstock.clients;

import java.util.Optional;

/**
 * A service answered, but not as the call expects: a 4xx or 5xx, nearly always with a {@link Problem}, or a status the
 * call does not know. Carries the status, the problem, {@code Retry-After} when there was one, and the body as it
 * came.
 */
public class ServiceProblem extends RuntimeException {

    private final int status;
    private final transient Problem problem;
    private final String retryAfter;
    private final String body;

    public ServiceProblem(String request, int status, String retryAfter, String body) {
        this(request, status, retryAfter, body, Problem.of(status, ServiceHttp.tree(body)));
    }

    private ServiceProblem(String request, int status, String retryAfter, String body, Problem problem) {
        super(message(request, status, problem, body));
        this.status = status;
        this.problem = problem;
        this.retryAfter = retryAfter;
        this.body = body == null ? "" : body;
    }

    public int status() {
        return status;
    }

    public Problem problem() {
        return problem;
    }

    /** The {@code Retry-After} header, when the answer had one. */
    public Optional<String> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The body as it came (empty for none). */
    public String body() {
        return body;
    }

    private static String message(String request, int status, Problem problem, String body) {
        String why = problem.detail().isEmpty() ? excerpt(body) : problem.detail();
        return request + " answered " + status + (problem.type().isEmpty() ? "" : " " + problem.name())
                + (why.isEmpty() ? "" : ": " + why);
    }

    /** The first 300 characters of a body: enough to tell what it was. */
    static String excerpt(String body) {
        return body == null ? "" : body.substring(0, Math.min(300, body.length()));
    }
}
