package io.github.flashstock.support.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceSignatureTest {

    private static final byte[] KEY = "a-key-of-order-demo-that-is-long-enough".getBytes(StandardCharsets.UTF_8);
    private static final Map<String, byte[]> KEYS = Map.of("order-demo", KEY);
    private static final Instant NOW = Instant.parse("2026-12-03T08:00:00Z");
    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final String XID = "127.0.0.1:18091:42";
    private static final byte[] BODY = "{\"reservationId\":\"o-1\",\"userId\":\"alice\",\"items\":[]}"
            .getBytes(StandardCharsets.UTF_8);

    private static ServiceSignature.Signed signed() {
        return ServiceSignature.sign("order-demo", KEY, "POST", "/reservations", XID, BODY, NOW);
    }

    private static String verify(ServiceSignature.Signed s, String method, String path, String xid, byte[] body,
                                 Instant now) {
        return ServiceSignature.verify(KEYS, s.name(), s.timestamp(), s.signature(), method, path, xid, body, now,
                WINDOW).orElse("accepted");
    }

    @Test
    void acceptsTheExactRequestWithinTheWindow() {
        assertThat(verify(signed(), "POST", "/reservations", XID, BODY, NOW)).isEqualTo("accepted");
        assertThat(verify(signed(), "POST", "/reservations", XID, BODY, NOW.plusSeconds(29))).isEqualTo("accepted");
        assertThat(verify(signed(), "POST", "/reservations", XID, BODY, NOW.minusSeconds(29))).isEqualTo("accepted");
    }

    @Test
    void refusesAnyChangeToTheRequest() {
        byte[] otherBody = "{\"reservationId\":\"o-1\",\"userId\":\"mallory\",\"items\":[]}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(verify(signed(), "POST", "/reservations", "127.0.0.1:18091:43", BODY, NOW))
                .contains("does not match");
        assertThat(verify(signed(), "POST", "/reservations", null, BODY, NOW)).contains("does not match");
        assertThat(verify(signed(), "POST", "/reservations", XID, otherBody, NOW)).contains("does not match");
        assertThat(verify(signed(), "PUT", "/reservations", XID, BODY, NOW)).contains("does not match");
        assertThat(verify(signed(), "POST", "/reservations/x", XID, BODY, NOW)).contains("does not match");
    }

    @Test
    void refusesOldOrFutureSignaturesAndUnknownCallers() {
        assertThat(verify(signed(), "POST", "/reservations", XID, BODY, NOW.plusSeconds(31))).contains("30 s");
        assertThat(verify(signed(), "POST", "/reservations", XID, BODY, NOW.minusSeconds(31))).contains("30 s");
        ServiceSignature.Signed stranger = ServiceSignature.sign("mallory", KEY, "POST", "/reservations", XID, BODY,
                NOW);
        assertThat(verify(stranger, "POST", "/reservations", XID, BODY, NOW)).contains("no service named 'mallory'");
        ServiceSignature.Signed wrongKey = ServiceSignature.sign("order-demo",
                "another-key-that-is-long-enough-to-pass".getBytes(StandardCharsets.UTF_8), "POST", "/reservations",
                XID, BODY, NOW);
        assertThat(verify(wrongKey, "POST", "/reservations", XID, BODY, NOW)).contains("does not match");
        assertThat(ServiceSignature.verify(KEYS, null, null, null, "POST", "/reservations", XID, BODY, NOW, WINDOW))
                .hasValueSatisfying(reason -> assertThat(reason).contains("not signed"));
        assertThat(ServiceSignature.verify(KEYS, "order-demo", "soon", "x", "POST", "/reservations", XID, BODY, NOW,
                WINDOW)).hasValueSatisfying(reason -> assertThat(reason).contains("not a number"));
    }

    @Test
    void keysShorterThan32BytesAreRefused() {
        assertThatThrownBy(() -> ServiceSignature.key("orders.inventory.signing-key", ""))
                .hasMessageContaining("orders.inventory.signing-key").hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> ServiceSignature.key("k", null)).hasMessageContaining("32 bytes");
        assertThat(ServiceSignature.key("k", "x".repeat(32))).hasSize(32);
    }
}
