package io.github.flashstock.orderdemo.buyers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

class VerifiedTokensTest {

    private static final Instant NOW = Instant.parse("2026-12-03T09:00:00Z");

    private final AtomicInteger checks = new AtomicInteger();

    /** A decoder that counts its checks: "good" expires a minute from NOW, "forever" never, anything else is refused. */
    private final JwtDecoder decoder = token -> {
        checks.incrementAndGet();
        Jwt.Builder jwt = Jwt.withTokenValue(token).header("alg", "RS256").subject("u1").issuedAt(NOW.minusSeconds(1));
        return switch (token) {
            case "good" -> jwt.expiresAt(NOW.plusSeconds(60)).build();
            case "forever" -> jwt.claim("note", "no exp").build();
            default -> throw new BadJwtException("refused");
        };
    };

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    @Test
    void aTokenIsVerifiedOnceWhileItLasts() {
        VerifiedTokens tokens = new VerifiedTokens(decoder, at(NOW), 10, Duration.ofMinutes(10));

        assertThat(tokens.decode("good").getSubject()).isEqualTo("u1");
        assertThat(tokens.decode("good").getSubject()).isEqualTo("u1");

        assertThat(checks).hasValue(1);
    }

    @Test
    void aKeptTokenPastItsExpiryIsCheckedAgain() {
        Instant[] now = {NOW};
        Clock moving = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        VerifiedTokens tokens = new VerifiedTokens(decoder, moving, 10, Duration.ofMinutes(10));
        tokens.decode("good");
        tokens.decode("good");
        assertThat(checks).hasValue(1);

        now[0] = NOW.plusSeconds(61);
        tokens.decode("good");

        // past its exp it is never served from what was kept (the real decoder then refuses it: its own check)
        assertThat(checks).hasValue(2);
    }

    @Test
    void refusedTokensAndTokensWithoutExpiryAreNeverKept() {
        VerifiedTokens tokens = new VerifiedTokens(decoder, at(NOW), 10, Duration.ofMinutes(10));

        assertThatThrownBy(() -> tokens.decode("forged")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> tokens.decode("forged")).isInstanceOf(BadJwtException.class);
        tokens.decode("forever");
        tokens.decode("forever");

        assertThat(checks).hasValue(4);
    }
}
