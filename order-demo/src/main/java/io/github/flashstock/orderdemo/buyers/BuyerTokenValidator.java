package io.github.flashstock.orderdemo.buyers;

import java.util.regex.Pattern;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;

/**
 * What a buyer token must hold besides a good signature and a time window that includes now (checked by Spring
 * Security's own validators): the configured issuer, exactly; an expiry, so that no token is good forever; and a
 * subject that can be a user id ({@link Buyer#USER_ID_PATTERN}). Spring Boot adds this validator to the decoder it
 * builds from the configured key.
 */
final class BuyerTokenValidator implements OAuth2TokenValidator<Jwt> {

    private static final Pattern USER_ID = Pattern.compile(Buyer.USER_ID_PATTERN);

    private final String issuer;

    BuyerTokenValidator(String issuer) {
        this.issuer = issuer;
    }

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        // nothing of the token is echoed: the description goes into the WWW-Authenticate header
        if (!issuer.equals(token.getClaimAsString(JwtClaimNames.ISS))) {
            return refused("the token's issuer (iss) is not the one this service trusts");
        }
        if (token.getExpiresAt() == null) {
            return refused("the token has no expiry (exp)");
        }
        String subject = token.getSubject();
        if (subject == null || !USER_ID.matcher(subject).matches()) {
            return refused("the token's subject (sub) is not a user id: 1 to 64 letters, digits, '.', '_' or '-'");
        }
        return OAuth2TokenValidatorResult.success();
    }

    private static OAuth2TokenValidatorResult refused(String description) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null));
    }
}
