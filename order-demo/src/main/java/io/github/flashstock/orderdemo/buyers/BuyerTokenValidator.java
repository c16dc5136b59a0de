package io.github.flashstock.orderdemo.buyers;

import java.util.Base64;
import java.util.regex.Pattern;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a buyer token must hold besides a good signature and a time window that includes now (checked by Spring
 * Security's own validators): the configured issuer, exactly; the configured audience among its audiences, so that a
 * token the same issuer wrote for another service is refused; an expiry, so that no token is good forever; and a
 * subject that is a JSON string and can be a user id ({@link Buyer#USER_ID_PATTERN}): a number is no user id, even
 * though JWT libraries would read it as the text of its digits. Spring Boot adds this validator to the decoder it
 * builds from the configured key.
 */
final class BuyerTokenValidator implements OAuth2TokenValidator<Jwt> {

    private static final Pattern USER_ID = Pattern.compile(Buyer.USER_ID_PATTERN);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String issuer;
    private final String audience;

    BuyerTokenValidator(String issuer, String audience) {
        this.issuer = issuer;
        this.audience = audience;
    }

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        // nothing of the token is echoed: the description goes into the WWW-Authenticate header
        if (!issuer.equals(token.getClaimAsString(JwtClaimNames.ISS))) {
            return refused("the token's issuer (iss) is not the one this service trusts");
        }
        if (token.getAudience() == null || !token.getAudience().contains(audience)) {
            return refused("the token's audience (aud) does not name this service");
        }
        if (token.getExpiresAt() == null) {
            return refused("the token has no expiry (exp)");
        }
        String subject = token.getSubject();
        if (subject == null || !USER_ID.matcher(subject).matches() || !subjectIsAString(token.getTokenValue())) {
            return refused("the token's subject (sub) is not a user id: a JSON string of 1 to 64 letters, digits,"
                    + " '.', '_' or '-'");
        }
        return OAuth2TokenValidatorResult.success();
    }

    /**
     * Whether the token's payload holds {@code sub} as a JSON string: the JWT library reads a number there as the text
     * of its digits, so the claims cannot tell. The signature is verified by now; this reads the payload once more.
     */
    static boolean subjectIsAString(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length < 2) {
            return false;
        }
        try {
            JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            return payload.path(JwtClaimNames.SUB).isString();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static OAuth2TokenValidatorResult refused(String description) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null));
    }
}
