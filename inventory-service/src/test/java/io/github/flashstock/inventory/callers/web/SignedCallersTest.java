package io.github.flashstock.inventory.callers.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.callers.CallerSettings;
import io.github.flashstock.support.auth.ServiceSignature;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;

/** The service signature as an authentication: the principal is the service, and a key can be rotated. */
class SignedCallersTest {

    private static final String CURRENT = "the-key-order-demo-signs-with-now-0123456789";
    private static final String NEXT = "the-key-order-demo-will-sign-with-0123456789";
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final String XID = "10.0.0.1:8091:42";
    private static final byte[] BODY = "{\"reservationId\":\"r-1\"}".getBytes(StandardCharsets.UTF_8);

    private final SignedCallers callers = new SignedCallers(new CallerSettings(
            Map.of("order-demo", List.of(CURRENT, NEXT)), Duration.ofSeconds(30)), Clock.fixed(NOW, ZoneOffset.UTC));

    private static SignedRequest signedWith(String caller, String key) {
        ServiceSignature.Signed s = ServiceSignature.sign(caller, key.getBytes(StandardCharsets.UTF_8), "POST",
                "/reservations", XID, BODY, NOW);
        return SignedRequest.unverified(new SignedRequest.Signed(s.name(), s.timestamp(), s.signature(), "POST",
                "/reservations", XID, BODY));
    }

    @Test
    void aKnownServiceIsThePrincipalWithTheRightToReserve() {
        Authentication verified = callers.authenticate(signedWith("order-demo", CURRENT));

        assertThat(verified.isAuthenticated()).isTrue();
        assertThat(verified.getName()).isEqualTo("order-demo");
        assertThat(verified.getAuthorities()).extracting(Object::toString).containsExactly(SignedRequest.RESERVE);
    }

    @Test
    void eitherKeyOfARotationIsAccepted() {
        assertThat(callers.authenticate(signedWith("order-demo", NEXT)).getName()).isEqualTo("order-demo");
    }

    @Test
    void refusesAnyOtherKeyAndAnyOtherNameSayingWhy() {
        assertThatThrownBy(() -> callers.authenticate(signedWith("order-demo", "a-guessed-key-of-order-demo-0123456789")))
                .isInstanceOf(BadCredentialsException.class).hasMessageContaining("does not match");
        assertThatThrownBy(() -> callers.authenticate(signedWith("mallory", CURRENT)))
                .isInstanceOf(BadCredentialsException.class).hasMessageContaining("no service named 'mallory'");
        assertThatThrownBy(() -> callers.authenticate(SignedRequest.unverified(new SignedRequest.Signed(null, null,
                null, "POST", "/reservations", XID, BODY))))
                .isInstanceOf(BadCredentialsException.class).hasMessageContaining("not signed");
    }

    @Test
    void refusesToStartWithMoreThanTwoKeysOrAShortOne() {
        assertThatThrownBy(() -> new SignedCallers(new CallerSettings(Map.of("order-demo", List.of(CURRENT, NEXT,
                CURRENT + "x")), Duration.ofSeconds(30)), Clock.systemUTC()))
                .hasMessageContaining("inventory.callers.keys.order-demo has 3 keys");
        assertThatThrownBy(() -> new SignedCallers(new CallerSettings(Map.of("order-demo", List.of("short")),
                Duration.ofSeconds(30)), Clock.systemUTC()))
                .hasMessageContaining("at least 32 bytes");
        assertThatThrownBy(() -> new SignedCallers(new CallerSettings(Map.of(), Duration.ofSeconds(30)),
                Clock.systemUTC())).hasMessageContaining("names no service");
    }
}
