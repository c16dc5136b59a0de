package io.github.flashstock.support.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the instances of one service prove to each other that they are instances of it, with a key they share
 * ({@code inventory.cluster.key}) and no operator's credential: the caller signs its request (HMAC-SHA256 over the
 * method, the path, the time, a fresh nonce and the {@code host:port} it addressed), the instance that answers checks
 * that signature, that the time is within the window and that the address is its own, and signs its answer over the
 * same nonce and the body's SHA-256. A stranger registered under the service's name gets a signature good for itself
 * only, once, and cannot answer in a way the caller accepts; an instance cannot replay a request it received to
 * another instance.
 *
 * <p>Request headers: {@value #TIMESTAMP} (milliseconds since the epoch), {@value #NONCE}, {@value #TARGET},
 * {@value #SIGNATURE}; the answer carries {@value #SIGNATURE}.
 */
public final class ClusterSignature {

    public static final String TIMESTAMP = "X-Cluster-Timestamp";
    public static final String NONCE = "X-Cluster-Nonce";
    public static final String TARGET = "X-Cluster-Target";
    public static final String SIGNATURE = "X-Cluster-Signature";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private ClusterSignature(byte[] key) {
        this.key = key;
    }

    /**
     * The signature with the configured key; with none ({@code key} blank), {@link #configured()} is false and nothing
     * can be signed or verified.
     */
    public static ClusterSignature of(String setting, String key) {
        return new ClusterSignature(key == null || key.isBlank() ? null : ServiceSignature.key(setting, key.strip()));
    }

    public boolean configured() {
        return key != null;
    }

    /** The headers of a signed request to {@code target} ({@code host:port}). */
    public Map<String, String> signRequest(String method, String path, String target, Instant now) {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        String n = Base64.getUrlEncoder().withoutPadding().encodeToString(nonce);
        String timestamp = Long.toString(now.toEpochMilli());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(TIMESTAMP, timestamp);
        headers.put(NONCE, n);
        headers.put(TARGET, target);
        headers.put(SIGNATURE, mac("cluster-request", method, path, timestamp, n, target));
        return headers;
    }

    /**
     * Why a request is not one a peer signed for this instance; empty when it is.
     *
     * @param isMe whether a {@code host:port} addresses this instance
     */
    public Optional<String> verifyRequest(String method, String path, String timestamp, String nonce, String target,
                                          String signature, Predicate<String> isMe, Instant now, Duration window) {
        if (key == null) {
            return Optional.of("this instance has no cluster key");
        }
        if (timestamp == null || nonce == null || target == null || signature == null) {
            return Optional.of("the request is not signed by a peer");
        }
        long millis;
        try {
            millis = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return Optional.of(TIMESTAMP + " is not a number of milliseconds");
        }
        if (Math.abs(now.toEpochMilli() - millis) > window.toMillis()) {
            return Optional.of("the peer's signature is older or newer than " + window.toSeconds() + " s");
        }
        if (!equal(mac("cluster-request", method, path, timestamp, nonce, target), signature)) {
            return Optional.of("the peer's signature does not match");
        }
        if (!isMe.test(target)) {
            return Optional.of("the request was signed for another instance");
        }
        return Optional.empty();
    }

    /** The signature of an answer to the request that carried {@code nonce}. */
    public String signResponse(String nonce, byte[] body) {
        return mac("cluster-response", nonce, HexFormat.of().formatHex(sha256(body)));
    }

    /** Whether the answer was signed by a peer over this nonce and this body. */
    public boolean verifyResponse(String nonce, byte[] body, String signature) {
        return key != null && signature != null && equal(signResponse(nonce, body), signature);
    }

    private String mac(String... parts) {
        if (key == null) {
            throw new IllegalStateException("no cluster key configured");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(String.join("\n", parts).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean equal(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "ClusterSignature[" + (key == null ? "no key" : "key set") + "]";
    }
}
