package io.github.flashstock.support.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;

/**
 * The bearer token that a service's admin API and its state-changing management endpoints require. Resolved once at
 * start: a configured token must not be a well-known placeholder nor shorter than {@link #MIN_LENGTH} characters (the
 * service refuses to start otherwise); with none configured, the service makes a random one and prints it once, so a
 * quick start works and nothing guessable ever guards a running service.
 */
public final class AdminToken {

    public static final int MIN_LENGTH = 16;
    /** Tokens that were ever written down in this project's files: never accepted. */
    static final Set<String> PLACEHOLDERS = Set.of("change-me-devstack-admin-token", "change-me");

    private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

    private final byte[] expectedHeader;

    private AdminToken(String token) {
        this.expectedHeader = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param configured the configured token, possibly blank
     * @param variable   the environment variable that sets it, named in messages
     * @throws IllegalStateException for a placeholder or a token that is too short
     */
    public static AdminToken resolve(String configured, String variable) {
        if (configured == null || configured.isBlank()) {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            log.warn("No admin token configured ({}): generated one for this process: {} (set {} to choose one;"
                    + " every instance needs the same)", variable, generated, variable);
            return new AdminToken(generated);
        }
        String token = configured.trim();
        if (PLACEHOLDERS.contains(token)) {
            throw new IllegalStateException("Refusing to start: the admin token is the documented placeholder '" + token
                    + "'. Set " + variable + " to a secret of at least " + MIN_LENGTH + " characters, or leave it"
                    + " unset to have one generated and printed at start.");
        }
        if (token.length() < MIN_LENGTH) {
            throw new IllegalStateException("Refusing to start: the admin token (" + variable + ") has "
                    + token.length() + " characters; it needs at least " + MIN_LENGTH + ".");
        }
        return new AdminToken(token);
    }

    /** The {@code Authorization} header value that carries this token (for tests in this package). */
    String bearerHeader() {
        return new String(expectedHeader, StandardCharsets.UTF_8);
    }

    /** True when the {@code Authorization} header carries this token (compared in constant time). */
    public boolean accepts(String authorizationHeader) {
        return authorizationHeader != null && MessageDigest.isEqual(
                authorizationHeader.getBytes(StandardCharsets.UTF_8), expectedHeader);
    }

    /** Answers 401 with problem {@code admin-token-required}. */
    public static void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(HttpStatus.UNAUTHORIZED.value());
        response.setContentType("application/problem+json");
        response.setHeader("WWW-Authenticate", "Bearer");
        response.getWriter().write("{\"type\":\"" + ProblemDetails.TYPE_PREFIX + "admin-token-required\",\"title\":"
                + "\"Admin token required\",\"status\":401,\"detail\":\"send Authorization: Bearer <admin token>\"}");
    }

    @Override
    public String toString() {
        return "AdminToken[****]";
    }
}
