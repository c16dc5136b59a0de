package io.github.flashstock.orderdemo.buyers;

import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.web.AuthenticationEntryPoint;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer to a request without a good buyer token: the status and {@code WWW-Authenticate} header RFC 6750 asks
 * for (as Spring Security's {@link BearerTokenAuthenticationEntryPoint} sets them: 401, {@code error="invalid_token"}
 * and why, for a token that was sent), and a problem document: {@code buyer-token-required} when none was sent,
 * {@code buyer-token-refused} for one that is forged, expired, from another issuer or for no user id.
 */
final class BuyerTokenRefusal implements AuthenticationEntryPoint {

    private final AuthenticationEntryPoint bearer = new BearerTokenAuthenticationEntryPoint();
    private final JsonMapper json;

    BuyerTokenRefusal(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException, ServletException {
        bearer.commence(request, response, e);
        HttpStatus status = HttpStatus.valueOf(response.getStatus());
        ProblemDetail problem;
        if (e instanceof OAuth2AuthenticationException refused) {
            String why = refused.getError().getDescription();
            problem = ProblemDetails.of(status, "buyer-token-refused", "Buyer token refused",
                    (why == null ? "the bearer token is not a valid buyer token" : why) + "; nothing was done");
        } else {
            problem = ProblemDetails.of(status, "buyer-token-required", "Buyer token required",
                    "send Authorization: Bearer <buyer token>, a JWT from the identity provider this service trusts;"
                            + " nothing was done");
        }
        write(response, json, problem);
    }

    /** Writes the problem as {@code application/problem+json}, with its status. */
    static void write(HttpServletResponse response, JsonMapper json, ProblemDetail problem) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.getType().toString());
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        if (problem.getInstance() != null) {
            body.put("instance", problem.getInstance().toString());
        }
        response.setStatus(problem.getStatus());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(json.writeValueAsString(body));
    }
}
