package io.github.flashstock.support.security;

import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * Every refusal of the security chains as a problem document, as every other refusal of the services is: who may not
 * call (401, with the {@code WWW-Authenticate} challenge RFC 6750 asks for), what nobody may call (403), and a request
 * whose path or headers the firewall turns away before any rule is read (400).
 */
public final class Refusals {

    private Refusals() {
    }

    /**
     * 401 {@code admin-token-required}, with the bearer challenge of RFC 6750 ({@code error="invalid_token"} for a
     * token that was sent and named no admin). A request that sent a token and was refused is a failed sign-in:
     * counted against its address by {@code throttle}, and logged.
     */
    public static AuthenticationEntryPoint adminTokenRequired(SignInThrottle throttle) {
        return (request, response, e) -> {
            if (request.getHeader("Authorization") != null) {
                throttle.failed(request, "admin token refused");
                response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            } else {
                response.setHeader("WWW-Authenticate", "Bearer");
            }
            write(response, ProblemDetails.of(HttpStatus.UNAUTHORIZED, "admin-token-required", "Admin token required",
                    "send Authorization: Bearer <admin token>; nothing was done"));
        };
    }

    /**
     * 403 {@code forbidden}: the request matched no rule that lets it in (deny by default), or its credentials do not
     * reach this route. Nothing was done.
     */
    public static AccessDeniedHandler forbidden() {
        return (request, response, e) -> write(response, forbiddenProblem());
    }

    /** The same 403 for a caller that sent no credentials (an anonymous request on a route nobody may call). */
    public static AuthenticationEntryPoint forbiddenToAnyone() {
        return (request, response, e) -> write(response, forbiddenProblem());
    }

    private static ProblemDetail forbiddenProblem() {
        return ProblemDetails.of(HttpStatus.FORBIDDEN, "forbidden", "Forbidden",
                "no rule of this service lets this caller make this request; nothing was done");
    }

    /**
     * 400 {@code malformed-request} for a request Spring Security's firewall turns away (a path with {@code ..},
     * {@code ;}, {@code //}, an encoded slash or percent, a header with control characters): no spelling of a path
     * reaches a rule written for another.
     */
    public static RequestRejectedHandler rejected() {
        return (request, response, e) -> write(response, ProblemDetails.of(HttpStatus.BAD_REQUEST, "malformed-request",
                "Malformed request", "the request's path or headers are not accepted (for example '..', ';', '//' or"
                        + " an encoded '/' in the path); nothing was done"));
    }

    /** Writes the problem as {@code application/problem+json}, with its status; its properties too. */
    public static void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.getType().toString());
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        if (problem.getProperties() != null) {
            body.putAll(problem.getProperties());
        }
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(json(body));
    }

    static String json(Map<String, Object> fields) {
        StringBuilder out = new StringBuilder("{");
        fields.forEach((name, value) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append(quoted(name)).append(':');
            out.append(value instanceof Number || value instanceof Boolean ? value.toString()
                    : value == null ? "null" : quoted(value.toString()));
        });
        return out.append('}').toString();
    }

    private static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
