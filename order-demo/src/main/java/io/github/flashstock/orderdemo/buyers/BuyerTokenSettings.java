package io.github.flashstock.orderdemo.buyers;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What a buyer token must say besides its signature, which the key of Spring Boot's resource server checks
 * ({@code spring.security.oauth2.resourceserver.jwt.public-key-location} or {@code jwk-set-uri}).
 *
 * @param issuer   the issuer ({@code iss}) every buyer token must name, exactly; required: without it the service
 *                 does not start
 * @param audience the audience ({@code aud}) every buyer token must name among its audiences: this service, as the
 *                 identity provider calls it, so that a token the same issuer wrote for another service is no buyer
 *                 token here; required: without it the service does not start
 */
@ConfigurationProperties("orders.buyers")
public record BuyerTokenSettings(String issuer, String audience) {

    public BuyerTokenSettings {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalStateException("Refusing to start: no issuer for buyer tokens. Set orders.buyers.issuer"
                    + " (ORDERS_BUYERS_ISSUER) to the 'iss' your identity provider writes into them, and the key that"
                    + " verifies them (docs/configuration.md, \"Buyer tokens\").");
        }
        if (audience == null || audience.isBlank()) {
            throw new IllegalStateException("Refusing to start: no audience for buyer tokens. Set"
                    + " orders.buyers.audience (ORDERS_BUYERS_AUDIENCE) to the 'aud' your identity provider writes into"
                    + " the tokens it issues for this service (docs/configuration.md, \"Buyer tokens\").");
        }
        issuer = issuer.trim();
        audience = audience.trim();
    }
}
