package io.github.flashstock.support.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A service's signature on one HTTP request to another service: HMAC-SHA256, under a key both share, over the method,
 * the path, the time of signing, the global transaction id (header {@code TX_XID}, empty without one), the caller's
 * name and the SHA-256 of the body. The receiver knows each caller's key by name, recomputes the signature and accepts
 * the request only within a window around its own clock. A request cannot be altered (a line, a quantity, a buyer, the
 * XID) without the key, and a captured one is good only within the window, for that exact request, which the
 * receiver's idempotency turns into a replay that changes nothing.
 *
 * <p>Headers: {@value #NAME}, {@value #TIMESTAMP} (milliseconds since the epoch), {@value #SIGNATURE} (base64url).
 */
public final class ServiceSignature {

    public static final String NAME = "X-Service-Name";
    public static final String TIMESTAMP = "X-Service-Timestamp";
    public static final String SIGNATURE = "X-Service-Signature";

    /** The shortest key accepted, in bytes: HMAC-SHA256's own output length. */
    public static final int MIN_KEY_BYTES = 32;

    private ServiceSignature() {
    }

    /** The three headers' values for a request. */
    public record Signed(String name, String timestamp, String signature) {

        /** Sets the three headers through {@code header} (name, value). */
        public void writeTo(java.util.function.BiConsumer<String, String> header) {
            header.accept(NAME, name);
            header.accept(TIMESTAMP, timestamp);
            header.accept(SIGNATURE, signature);
        }
    }

    /** Signs a request as {@code caller}. */
    public static Signed sign(String caller, byte[] key, String method, String path, String xid, byte[] body,
                              Instant now) {
        String timestamp = Long.toString(now.toEpochMilli());
        return new Signed(caller, timestamp, signature(key, caller, method, path, timestamp, xid, body));
    }

    /** Why a request is not accepted; empty when it is. */
    public static Optional<String> verify(Map<String, byte[]> keys, String caller, String timestamp, String signature,
                                          String method, String path, String xid, byte[] body, Instant now,
                                          Duration window) {
        if (caller == null || timestamp == null || signature == null) {
            return Optional.of("the request is not signed (headers " + NAME + ", " + TIMESTAMP + ", " + SIGNATURE
                    + ")");
        }
        byte[] key = keys.get(caller);
        if (key == null) {
            return Optional.of("no service named '" + bounded(caller) + "' may call this one");
        }
        long millis;
        try {
            millis = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return Optional.of(TIMESTAMP + " is not a number of milliseconds");
        }
        if (Math.abs(now.toEpochMilli() - millis) > window.toMillis()) {
            return Optional.of("the signature's time is more than " + window.toSeconds() + " s from this service's"
                    + " clock (a replayed or delayed request, or clocks apart)");
        }
        byte[] expected = signature(key, caller, method, path, timestamp, xid, body).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII))) {
            return Optional.of("the signature does not match the request");
        }
        return Optional.empty();
    }

    /** A key from its configured text: at least {@link #MIN_KEY_BYTES} bytes of UTF-8. */
    public static byte[] key(String setting, String text) {
        byte[] key = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalStateException(setting + " must be a secret of at least " + MIN_KEY_BYTES
                    + " bytes (for example: openssl rand -base64 48)");
        }
        return key;
    }

    static String signature(byte[] key, String caller, String method, String path, String timestamp, String xid,
                            byte[] body) {
        String canonical = String.join("\n", method, path, timestamp, xid == null ? "" : xid, caller,
                HexFormat.of().formatHex(sha256(body == null ? new byte[0] : body)));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String bounded(String s) {
        String printable = s.replaceAll("[^A-Za-z0-9._-]", "?");
        return printable.length() > 64 ? printable.substring(0, 64) + "..." : printable;
    }
}
