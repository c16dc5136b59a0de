package io.github.flashstock.orderdemo.buyers;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.support.security.ServiceSecurity;
import io.github.flashstock.support.web.AdminTokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.web.SecurityFilterChain;

/** The service starts only with a key to verify buyer tokens, the issuer and the audience they must name. */
class BuyerSecurityTest {

    private final WebApplicationContextRunner service = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, SecurityAutoConfiguration.class,
                    ServletWebSecurityAutoConfiguration.class, OAuth2ResourceServerAutoConfiguration.class))
            .withUserConfiguration(ServiceSecurity.class, BuyerSecurity.class)
            .withBean(AdminTokens.class, () -> AdminTokens.resolve("buyer-security-test-token", "X_TOKEN"))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("orders.buyers.audience=" + BuyerTokenFixtures.AUDIENCE);

    @Test
    void refusesToStartWithoutAnIssuer() {
        service.withPropertyValues("spring.security.oauth2.resourceserver.jwt.public-key-location="
                        + BuyerTokenFixtures.publicKeyLocation())
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("Refusing to start: no issuer for buyer tokens")
                        .hasMessageContaining("ORDERS_BUYERS_ISSUER"));
    }

    @Test
    void refusesToStartWithoutAnAudience() {
        service.withPropertyValues("orders.buyers.issuer=" + BuyerTokenFixtures.ISSUER, "orders.buyers.audience=",
                        "spring.security.oauth2.resourceserver.jwt.public-key-location="
                                + BuyerTokenFixtures.publicKeyLocation())
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("Refusing to start: no audience for buyer tokens")
                        .hasMessageContaining("ORDERS_BUYERS_AUDIENCE"));
    }

    @Test
    void refusesToStartWithoutAKey() {
        service.withPropertyValues("orders.buyers.issuer=" + BuyerTokenFixtures.ISSUER)
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("Refusing to start: no key to verify buyer tokens with")
                        .hasMessageContaining("public-key-location").hasMessageContaining("jwk-set-uri"));
    }

    @Test
    void startsWithAKeyAndAnIssuer() {
        service.withPropertyValues("orders.buyers.issuer=" + BuyerTokenFixtures.ISSUER,
                        "spring.security.oauth2.resourceserver.jwt.public-key-location="
                                + BuyerTokenFixtures.publicKeyLocation())
                .run(context -> assertThat(context).hasNotFailed().getBeans(SecurityFilterChain.class).hasSize(3));
    }
}
