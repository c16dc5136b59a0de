package io.github.flashstock.orderdemo.buyers;

import io.github.flashstock.support.web.ProblemDetails;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may call what. Orders (everything but the paths below) need a buyer token: a JWT signed with RS256 and
 * verified by the key Spring Boot's resource server is configured with
 * ({@code spring.security.oauth2.resourceserver.jwt.public-key-location}, or {@code jwk-set-uri} for an identity
 * provider's key set), within its time window, naming {@link BuyerTokenSettings#issuer()} and a subject that can be
 * a user id ({@link BuyerTokenValidator}); that subject is the {@link Buyer}. A missing or refused token is 401 with
 * {@code WWW-Authenticate} and a problem document ({@link BuyerTokenRefusal}), before any order code runs.
 * <p>
 * Management endpoints, the API docs, error pages and {@code /admin/**} need no buyer token: reads of management
 * endpoints are open; writes to them need the admin token ({@code AdminGuard}, which runs before this), and
 * so does everything under {@code /admin} ({@code AdminOnlyPaths}, see {@link #adminPaths}). A bearer token sent there is never read as a buyer
 * token. No sessions and no CSRF protection: every request carries its own
 * credentials in a header, none in a cookie.
 * <p>
 * Without a key or an issuer the service does not start.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(BuyerTokenSettings.class)
public class BuyerSecurity implements WebMvcConfigurer {

    /** Spring Boot adds every such bean to the checks of the decoder it builds. */
    @Bean
    OAuth2TokenValidator<Jwt> buyerTokenValidator(BuyerTokenSettings settings) {
        return new BuyerTokenValidator(settings.issuer());
    }

    @Bean
    @Order(1)
    SecurityFilterChain openPaths(HttpSecurity http,
                                  @Value("${management.endpoints.web.base-path:/actuator}") String managementPath)
            throws Exception {
        String management = managementPath.endsWith("/")
                ? managementPath.substring(0, managementPath.length() - 1) : managementPath;
        return stateless(http)
                .securityMatcher(management, management + "/**", "/v3/api-docs", "/v3/api-docs/**",
                        "/swagger-ui.html", "/swagger-ui/**", "/error")
                .authorizeHttpRequests(paths -> paths.anyRequest().permitAll())
                .build();
    }

    /**
     * {@code /admin/**}: no buyer token; the admin token instead, which {@code AdminGuard} tells and {@code AdminOnlyPaths}
     * requires. Spring Security's request wrapper is left out here: it would answer {@code isUserInRole} from its own
     * authentication (none on these paths) instead of from the admin {@code AdminGuard} found.
     */
    @Bean
    @Order(0)
    SecurityFilterChain adminPaths(HttpSecurity http) throws Exception {
        return stateless(http)
                .securityMatcher("/admin", "/admin/**")
                .servletApi(AbstractHttpConfigurer::disable)
                .authorizeHttpRequests(paths -> paths.anyRequest().permitAll())
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain buyerPaths(HttpSecurity http, ObjectProvider<JwtDecoder> decoder, JsonMapper json)
            throws Exception {
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
        return stateless(http)
                .authorizeHttpRequests(paths -> paths.anyRequest().authenticated())
                .oauth2ResourceServer(server -> server.jwt(jwt -> jwt.decoder(verified))
                        .authenticationEntryPoint(refusal))
                .exceptionHandling(failures -> failures.authenticationEntryPoint(refusal))
                .build();
    }

    private static HttpSecurity stateless(HttpSecurity http) throws Exception {
        return http
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable);
    }

    /**
     * A request Spring Security's firewall turns away (a path with {@code ..}, {@code ;}, {@code //} or an encoded
     * slash, a header with control characters) gets a problem document, as every other refusal does.
     */
    @Bean
    RequestRejectedHandler requestRejected(JsonMapper json) {
        return (request, response, e) -> BuyerTokenRefusal.write(response, json, ProblemDetails.of(
                HttpStatus.BAD_REQUEST, "malformed-request", "Malformed request",
                "the request's path or headers are not accepted (for example '..', ';' or '//' in the path)"));
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
