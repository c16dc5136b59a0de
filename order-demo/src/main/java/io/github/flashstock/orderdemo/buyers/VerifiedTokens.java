package io.github.flashstock.orderdemo.buyers;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * Buyer tokens the decoder has already accepted, kept so that a buyer's next request with the same token (another
 * order, a poll of {@code GET /orders/{id}}) skips the signature check, which is most of what a token costs. Only
 * accepted tokens are kept, by their exact text, each at most until its {@code exp} and at most {@code keep} after it
 * was verified; a kept token past its {@code exp} is checked again, and refused. Refused tokens are never kept. The
 * cache holds at most {@code size} tokens (the least used go first).
 */
final class VerifiedTokens implements JwtDecoder {

    private final JwtDecoder decoder;
    private final Clock clock;
    private final Cache<String, Jwt> verified;

    VerifiedTokens(JwtDecoder decoder, Clock clock, long size, Duration keep) {
        this.decoder = decoder;
        this.clock = clock;
        this.verified = Caffeine.newBuilder().maximumSize(size).expireAfterWrite(keep).build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt known = verified.getIfPresent(token);
        Instant now = clock.instant();
        if (known != null && known.getExpiresAt() != null && now.isBefore(known.getExpiresAt())) {
            return known;
        }
        Jwt jwt = decoder.decode(token);
        if (jwt.getExpiresAt() != null && now.isBefore(jwt.getExpiresAt())) {
            verified.put(token, jwt);
        }
        return jwt;
    }
}
