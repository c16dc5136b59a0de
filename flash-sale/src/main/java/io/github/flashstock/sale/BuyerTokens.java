package io.github.flashstock.sale;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
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
import java.util.Collection;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Buyer tokens for order-demo, as an identity provider would issue them to the harness's buyers: RS256 JWTs whose
 * subject ({@code sub}) is the buyer's user id, whose issuer is {@link #ISSUER} and whose audience is
 * {@link #AUDIENCE}, signed with a key pair made when this object is. order-demo verifies them with the public half:
 * {@link #orderDemoEnvironment} writes it as a PEM file and names that file, the issuer and the audience in the
 * variables order-demo reads ({@code ORDERS_BUYERS_PUBLIC_KEY_LOCATION}, {@code ORDERS_BUYERS_ISSUER},
 * {@code ORDERS_BUYERS_AUDIENCE}). The private half never leaves this process.
 * <p>
 * A signature costs about a millisecond of CPU, so a buyer's token is minted once and reused until it nears its
 * expiry; {@link #mintAhead} mints a sale's tokens before it opens, so no buyer's first order waits for one.
 */
public final class BuyerTokens {

    /** The issuer the harness's tokens name, and the one order-demo is told to require. */
    public static final String ISSUER = "urn:flashstock:devstack:buyers";
    /** The audience the harness's tokens name: order-demo, as the identity provider knows it. */
    public static final String AUDIENCE = "urn:flashstock:devstack:order-demo";
    /** How long a minted token is good for: longer than any sale, drill or benchmark run. */
    static final Duration LIFETIME = Duration.ofHours(12);
    /** A reused token is minted anew once it has less than this left. */
    static final Duration RENEW_BEFORE = Duration.ofHours(1);

    private record Minted(String bearer, Instant expiresAt) {
    }

    private final RSAKey key;
    private final JWSSigner signer;
    private final Map<String, Minted> minted = new ConcurrentHashMap<>();

    private BuyerTokens(RSAKey key) throws JOSEException {
        this.key = key;
        this.signer = new RSASSASigner(key);
    }

    /** Tokens signed with a new 2048-bit RSA key pair. */
    public static BuyerTokens generate() {
        try {
            return new BuyerTokens(new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate());
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make a key pair for buyer tokens", e);
        }
    }

    /** The public key as PEM ({@code BEGIN PUBLIC KEY}, X.509 SubjectPublicKeyInfo): what order-demo reads. */
    public String publicKeyPem() {
        try {
            return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@link #publicKeyPem()} to the file (its folder made if need be) and returns the file. */
    public Path writePublicKey(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, publicKeyPem());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the buyer tokens' public key to " + file, e);
        }
    }

    /**
     * Writes the public key to {@code publicKeyFile} and returns the variables that make order-demo trust these
     * tokens and no others.
     */
    public Map<String, String> orderDemoEnvironment(Path publicKeyFile) {
        Path written = writePublicKey(publicKeyFile).toAbsolutePath();
        return Map.of("ORDERS_BUYERS_PUBLIC_KEY_LOCATION", "file:" + written, "ORDERS_BUYERS_ISSUER", ISSUER,
                "ORDERS_BUYERS_AUDIENCE", AUDIENCE);
    }

    /**
     * The {@code Authorization} header value for the buyer: {@code Bearer <token>}, minted on first use and reused
     * while it has more than {@link #RENEW_BEFORE} left.
     */
    public String bearer(String userId) {
        Instant now = Instant.now();
        Minted token = minted.get(userId);
        if (token == null || token.expiresAt().isBefore(now.plus(RENEW_BEFORE))) {
            Instant expiresAt = now.plus(LIFETIME);
            token = new Minted("Bearer " + token(userId, ISSUER, now, expiresAt), expiresAt);
            minted.put(userId, token);
        }
        return token.bearer();
    }

    /** Mints the buyers' tokens now, on every core, so that their orders find them ready. */
    public void mintAhead(Collection<String> userIds) {
        userIds.stream().distinct().parallel().forEach(this::bearer);
    }

    /**
     * A new token, never reused, as the identity provider would sign it with this key: for tests of tokens order-demo
     * must refuse (another issuer, expired).
     */
    public String token(String userId, String issuer, Instant issuedAt, Instant expiresAt) {
        return token(userId, issuer, AUDIENCE, issuedAt, expiresAt);
    }

    /** A new token for the audience given: for tests of tokens issued for another service. */
    public String token(String userId, String issuer, String audience, Instant issuedAt, Instant expiresAt) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(userId)
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .jwtID(UUID.randomUUID().toString())
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a buyer token", e);
        }
        return jwt.serialize();
    }
}
