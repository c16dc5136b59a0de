package io.github.flashstock.orderdemo.buyers;

import io.github.flashstock.orderdemo.limits.OrderRateLimiting;
import io.github.flashstock.orderdemo.limits.OrderRateLimits;
import io.github.flashstock.support.security.AdminTokenIntrospector;
import io.github.flashstock.support.security.ServiceSecurity;
import io.github.flashstock.support.security.SignInThrottle;
import io.github.flashstock.support.web.AdminTokens;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may call what, one filter chain per kind of caller, deny by default; Spring Security's firewall and matchers
 * decide on the normalised path.
 * <ol>
 *   <li><b>Operators</b>: {@code /admin/**}, the management endpoints and the API description need the admin token
 *   ({@code ServiceSecurity.adminBearer}; health's status is for anyone). A bearer token sent there is never read as a
 *   buyer token.</li>
 *   <li><b>Buyers</b>: {@code POST /orders} and {@code GET /orders/{id}} need a buyer token: a JWT signed with RS256 and
 *   verified by the key Spring Boot's resource server is configured with
 *   ({@code spring.security.oauth2.resourceserver.jwt.public-key-location}, or {@code jwk-set-uri} for an identity
 *   provider's key set), within its time window, naming {@link BuyerTokenSettings#issuer()} and
 *   {@link BuyerTokenSettings#audience()} and a subject that can be a user id ({@link BuyerTokenValidator}); that
 *   subject is the {@link Buyer}. A missing or refused token is 401 with {@code WWW-Authenticate} and a problem
 *   document ({@link BuyerTokenRefusal}), before any order code runs. Orders are limited per client address and per
 *   buyer ({@link OrderRateLimiting}: 429 {@code too-many-orders}).</li>
 *   <li>Anything else is refused (403 {@code forbidden}).</li>
 * </ol>
 * No sessions and no CSRF protection: every request carries its own credentials in a header, none in a cookie.
 * Without a key, an issuer or an audience the service does not start.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(BuyerTokenSettings.class)
@Import(OrderRateLimiting.class)
public class BuyerSecurity implements WebMvcConfigurer {

    /** Spring Boot adds every such bean to the checks of the decoder it builds. */
    @Bean
    OAuth2TokenValidator<Jwt> buyerTokenValidator(BuyerTokenSettings settings) {
        return new BuyerTokenValidator(settings.issuer(), settings.audience());
    }

    @Bean
    @Order(0)
    SecurityFilterChain operators(HttpSecurity http, AdminTokens tokens, SignInThrottle throttle,
                                  @Value("${springdoc.api-docs.path:/v3/api-docs}") String apiDocsPath,
                                  @Value("${flashstock.api-docs.open:false}") boolean apiDocsOpen) throws Exception {
        ServiceSecurity.stateless(http).securityMatcher(ServiceSecurity.operatorRoutes(apiDocsPath));
        ServiceSecurity.adminBearer(http, tokens, throttle);
        return http.authorizeHttpRequests(rules -> {
            ServiceSecurity.managementRules(rules, apiDocsPath, apiDocsOpen);
            rules.anyRequest().hasAuthority(AdminTokenIntrospector.ROLE);
        }).build();
    }

    @Bean
    @Order(1)
    SecurityFilterChain buyers(HttpSecurity http, ObjectProvider<JwtDecoder> decoder, JsonMapper json,
                               OrderRateLimits limits) throws Exception {
        if (decoder.getIfAvailable() == null) {
            throw new IllegalStateException("Refusing to start: no key to verify buyer tokens with. Set"
                    + " spring.security.oauth2.resourceserver.jwt.public-key-location"
                    + " (ORDERS_BUYERS_PUBLIC_KEY_LOCATION, e.g. file:/etc/flashstock/buyers.pub.pem, an RSA public key"
                    + " in PEM) or spring.security.oauth2.resourceserver.jwt.jwk-set-uri (your identity provider's"
                    + " key set) (docs/configuration.md, \"Buyer tokens\").");
        }
        BuyerTokenRefusal refusal = new BuyerTokenRefusal(json);
        // a buyer's token is verified once and kept until it expires (VerifiedTokens)
        JwtDecoder verified = new VerifiedTokens(decoder.getIfAvailable(), Clock.systemUTC(), 100_000,
                Duration.ofMinutes(10));
        PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
        return ServiceSecurity.stateless(http)
                .securityMatcher(new OrRequestMatcher(paths.matcher(HttpMethod.POST, "/orders"),
                        paths.matcher(HttpMethod.GET, "/orders/*")))
                .addFilterBefore(OrderRateLimiting.perAddress(limits), BearerTokenAuthenticationFilter.class)
                .addFilterAfter(OrderRateLimiting.perBuyer(limits), AuthorizationFilter.class)
                .authorizeHttpRequests(rules -> rules.anyRequest().authenticated())
                .oauth2ResourceServer(server -> server.jwt(jwt -> jwt.decoder(verified))
                        .authenticationEntryPoint(refusal))
                .exceptionHandling(failures -> failures.authenticationEntryPoint(refusal))
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain everyoneElse(HttpSecurity http) throws Exception {
        return ServiceSecurity.stateless(http)
                .authorizeHttpRequests(rules -> rules.requestMatchers("/error").permitAll().anyRequest().denyAll())
                .build();
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new BuyerArgument());
    }

    /** A {@link Buyer} parameter of a controller method: the subject of the request's verified token. */
    static final class BuyerArgument implements HandlerMethodArgumentResolver {

        @Override
        public boolean supportsParameter(MethodParameter parameter) {
            return parameter.getParameterType() == Buyer.class;
        }

        @Override
        public Buyer resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
                                     WebDataBinderFactory binders) {
            Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication instanceof JwtAuthenticationToken token) {
                return new Buyer(token.getToken().getSubject());
            }
            // only on a path left open by mistake: the answer is then 401, never an anonymous order
            throw new AuthenticationCredentialsNotFoundException("no buyer token");
        }
    }
}
