package io.github.flashstock.support.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer tokens that a service's admin API and its state-changing management endpoints require, each naming the
 * admin it identifies: the service's token ({@code INVENTORY_ADMIN_TOKEN}) names {@value #ADMIN}; a named token
 * ({@code inventory.admin-tokens.<name>}) names its holder, so that an audit says who acted. Resolved once at start: a
 * configured token must not be a well-known placeholder nor shorter than {@link #MIN_LENGTH} characters, a name must
 * be {@value #NAME} (at most {@link #NAME_MAX} characters), and no token may name two admins (the service refuses to
 * start otherwise); with none configured, the service makes a random one and prints it once, so a quick start works
 * and nothing guessable ever guards a running service.
 */
public final class AdminTokens {

    public static final int MIN_LENGTH = 16;
    /** The admin the service's own token identifies. */
    public static final String ADMIN = "admin";
    /** What a named token's name may be: lower case, as environment variables bind them. */
    public static final String NAME = "[a-z0-9][a-z0-9._-]{0,31}";
    public static final int NAME_MAX = 32;
    /** The placeholders this project's documentation once showed as tokens: never accepted. */
    static final Set<String> PLACEHOLDERS = Set.of("change-me-devstack-admin-token", "change-me");

    private static final Pattern NAME_PATTERN = Pattern.compile(NAME);
    private static final Logger log = LoggerFactory.getLogger(AdminTokens.class);

    /**
     * What a token may be made of: RFC 6750's {@code b64token}, the characters a bearer token may carry in an
     * {@code Authorization} header (Spring Security's bearer token resolver refuses any other as malformed).
     */
    static final Pattern TOKEN_SYNTAX = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

    /** Each admin's token, by admin. */
    private final Map<String, byte[]> expected;

    private AdminTokens(Map<String, String> tokensByAdmin) {
        Map<String, byte[]> tokens = new LinkedHashMap<>();
        tokensByAdmin.forEach((admin, token) -> tokens.put(admin, token.getBytes(StandardCharsets.UTF_8)));
        this.expected = Map.copyOf(tokens);
    }

    /**
     * The service's own token alone.
     *
     * @param configured the configured token, possibly blank
     * @param variable   the environment variable that sets it, named in messages
     * @throws IllegalStateException for a placeholder or a token that is too short
     */
    public static AdminTokens resolve(String configured, String variable) {
        return resolve(configured, variable, Map.of(), null);
    }

    /**
     * The service's own token (admin {@value #ADMIN}) and the named ones.
     *
     * @param configured   the service's own token, possibly blank
     * @param variable     the environment variable that sets it, named in messages
     * @param named        tokens by the name of the admin each identifies; null or empty for none
     * @param namedSetting the setting the named tokens come from ({@code inventory.admin-tokens}), named in messages
     * @throws IllegalStateException for a placeholder, a token that is too short, a name that is not {@value #NAME},
     *                               or a token given twice
     */
    public static AdminTokens resolve(String configured, String variable, Map<String, String> named,
                                      String namedSetting) {
        Map<String, String> tokens = new TreeMap<>();
        if (configured != null && !configured.isBlank()) {
            tokens.put(ADMIN, checked(configured.trim(), variable));
        }
        if (named != null) {
            named.forEach((name, token) -> {
                String setting = namedSetting + "." + name;
                if (!NAME_PATTERN.matcher(name).matches() || name.equals(ADMIN)) {
                    throw new IllegalStateException("Refusing to start: the admin token " + setting + " has a name"
                            + " that is not " + NAME + " (or is '" + ADMIN + "', which " + variable + " names).");
                }
                tokens.put(name, checked(token == null ? "" : token.trim(), setting));
            });
        }
        if (new HashSet<>(tokens.values()).size() < tokens.size()) {
            throw new IllegalStateException("Refusing to start: two admin tokens are the same (" + variable + ", "
                    + namedSetting + ".*); each admin needs a token of its own.");
        }
        if (tokens.isEmpty()) {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            log.warn("No admin token configured ({}): generated one for this process: {} (set {} to choose one;"
                    + " every instance needs the same)", variable, generated, variable);
            tokens.put(ADMIN, generated);
        }
        return new AdminTokens(tokens);
    }

    private static String checked(String token, String setting) {
        if (PLACEHOLDERS.contains(token)) {
            throw new IllegalStateException("Refusing to start: the admin token is the documented placeholder '" + token
                    + "'. Set " + setting + " to a secret of at least " + MIN_LENGTH + " characters, or leave it"
                    + " unset to have one generated and printed at start.");
        }
        if (token.length() < MIN_LENGTH) {
            throw new IllegalStateException("Refusing to start: the admin token (" + setting + ") has "
                    + token.length() + " characters; it needs at least " + MIN_LENGTH + ".");
        }
        if (!TOKEN_SYNTAX.matcher(token).matches()) {
            throw new IllegalStateException("Refusing to start: the admin token (" + setting + ") has characters a"
                    + " bearer token cannot carry; use letters, digits and - . _ ~ + / (for example: openssl rand"
                    + " -base64 32).");
        }
        return token;
    }

    /** The {@value #ADMIN} token (for tests in this package). */
    String adminToken() {
        return new String(expected.get(ADMIN), StandardCharsets.UTF_8);
    }

    /**
     * The admin a bearer token names. Every token is compared, each in constant time, so the time taken says nothing
     * about which one matched or how much of it.
     */
    public Optional<String> admin(String token) {
        if (token == null) {
            return Optional.empty();
        }
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        String admin = null;
        for (Map.Entry<String, byte[]> each : expected.entrySet()) {
            if (MessageDigest.isEqual(given, each.getValue())) {
                admin = each.getKey();
            }
        }
        return Optional.ofNullable(admin);
    }

    @Override
    public String toString() {
        return "AdminTokens" + expected.keySet();
    }
}
