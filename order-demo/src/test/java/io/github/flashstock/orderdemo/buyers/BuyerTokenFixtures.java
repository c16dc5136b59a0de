package io.github.flashstock.orderdemo.buyers;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Buyer tokens for tests, as an identity provider would sign them: a key pair made once per test JVM, its public half
 * in a PEM file the service is pointed at ({@link #configure}), and tokens good, forged, expired or from another
 * issuer.
 */
public final class BuyerTokenFixtures {

    public static final String ISSUER = "urn:flashstock:test-buyers";
    public static final String AUDIENCE = "urn:flashstock:test-order-demo";

    private static final RSAKey KEY = generate();
    /** A key the service does not know: what a forger signs with. */
    private static final RSAKey FORGERS_KEY = generate();
    private static final Path PUBLIC_KEY = publicKeyFile(KEY);

    private BuyerTokenFixtures() {
    }

    /** Points the service at this class's key and issuer. */
    public static void configure(DynamicPropertyRegistry registry) {
        registry.add("spring.security.oauth2.resourceserver.jwt.public-key-location",
                BuyerTokenFixtures::publicKeyLocation);
        registry.add("orders.buyers.issuer", () -> ISSUER);
        registry.add("orders.buyers.audience", () -> AUDIENCE);
    }

    /** The PEM file of the public key, as a resource location. */
    public static String publicKeyLocation() {
        return "file:" + PUBLIC_KEY;
    }

    /** {@code Bearer <token>} for the user, good for an hour. */
    public static String bearer(String userId) {
        return "Bearer " + sign(KEY, ISSUER, userId, Instant.now().plus(Duration.ofHours(1)));
    }

    /** A token like {@link #bearer}'s, signed with a key the service does not know. */
    public static String forgedBearer(String userId) {
        return "Bearer " + sign(FORGERS_KEY, ISSUER, userId, Instant.now().plus(Duration.ofHours(1)));
    }

    /** A token that expired ten minutes ago, well beyond the minute of clock skew allowed. */
    public static String expiredBearer(String userId) {
        return "Bearer " + sign(KEY, ISSUER, userId, Instant.now().minus(Duration.ofMinutes(10)));
    }

    /** A token signed with the right key for another issuer. */
    public static String bearerFrom(String issuer, String userId) {
        return "Bearer " + sign(KEY, issuer, userId, Instant.now().plus(Duration.ofHours(1)));
    }

    /** A token signed with the right key, from the right issuer, for another service. */
    public static String bearerFor(String audience, String userId) {
        return "Bearer " + sign(KEY, ISSUER, audience, userId, Instant.now().plus(Duration.ofHours(1)));
    }

    /** A token signed with the right key whose subject is a JSON number, not a string. */
    public static String bearerWithNumericSubject(long userId) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).claim("sub", userId)
                .issueTime(new Date()).expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1)))).build();
        return "Bearer " + signed(KEY, claims);
    }

    /** A token signed with the right key that never expires. */
    public static String bearerWithoutExpiry(String userId) {
        return "Bearer " + sign(KEY, ISSUER, userId, null);
    }

    /** A token with the right claims and no signature at all ({@code alg: none}). */
    public static String unsignedBearer(String userId) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return "Bearer " + base64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"" + userId + "\",\"exp\":"
                + Instant.now().plus(Duration.ofHours(1)).getEpochSecond() + "}").getBytes(StandardCharsets.UTF_8))
                + ".";
    }

    private static String sign(RSAKey key, String issuer, String subject, Instant expiresAt) {
        return sign(key, issuer, AUDIENCE, subject, expiresAt);
    }

    private static String sign(RSAKey key, String issuer, String audience, String subject, Instant expiresAt) {
        Instant issuedAt = expiresAt == null ? Instant.now() : expiresAt.minus(Duration.ofHours(1));
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).audience(audience).subject(subject)
                .issueTime(Date.from(issuedAt));
        if (expiresAt != null) {
            claims.expirationTime(Date.from(expiresAt));
        }
        return signed(key, claims.build());
    }

    private static String signed(RSAKey key, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyIDFromThumbprint(true).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path publicKeyFile(RSAKey key) {
        try {
            Path file = Files.createTempFile("buyers", ".pub.pem");
            file.toFile().deleteOnExit();
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.toRSAPublicKey().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
