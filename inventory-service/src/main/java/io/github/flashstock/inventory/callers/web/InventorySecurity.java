package io.github.flashstock.inventory.callers.web;

import io.github.flashstock.inventory.callers.CallerSettings;
import io.github.flashstock.support.auth.ClusterSignature;
import io.github.flashstock.support.auth.ServiceSignature;
import io.github.flashstock.support.security.AdminTokenIntrospector;
import io.github.flashstock.support.security.Refusals;
import io.github.flashstock.support.security.ServiceSecurity;
import io.github.flashstock.support.security.SignInThrottle;
import io.github.flashstock.support.web.AdminTokens;
import io.github.flashstock.support.web.LocalAddresses;
import io.github.flashstock.support.web.ProblemDetails;
import java.time.Clock;
import org.apache.seata.core.context.RootContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * Who may call what, one filter chain per kind of caller, tried in this order; Spring Security's firewall and its
 * matchers decide on the normalised path, so no spelling of a path reaches a handler around its rule.
 * <ol>
 *   <li><b>Services</b>: {@code POST /reservations} only, signed by a service named in {@code inventory.callers.keys}
 *   ({@link SignedCallers}); the principal is the service's name. Anything else is 401 {@code unknown-caller}, before
 *   the request's XID is bound or its body parsed.</li>
 *   <li><b>Operators</b>: {@code /admin/**}, the stock view {@code GET /skus/{id}/stock}, the management endpoints and
 *   the API description, with an admin token ({@link ServiceSecurity#adminBearer}); the principal, and so the actor
 *   every audit record names, is the token's name. Health's status is for anyone. One route, an instance's console
 *   reading, also takes another instance of this service ({@link ClusterPeers}), never with an operator's token.</li>
 *   <li><b>Anyone</b>: what a buyer or an order service may read without credentials ({@code GET /skus/{id}/available})
 *   and the console's page and its files (the page holds no data: it asks the admin API with the token its login form
 *   keeps). Everything else, whatever the caller, is refused (403 {@code forbidden}).</li>
 * </ol>
 */
@Configuration(proxyBeanMethods = false)
public class InventorySecurity {

    private static final Logger log = LoggerFactory.getLogger(InventorySecurity.class);

    @Bean
    @Order(1)
    SecurityFilterChain services(HttpSecurity http, CallerSettings settings, Clock clock) throws Exception {
        AuthenticationEntryPoint unknownCaller = (request, response, e) -> {
            log.warn("reservation call refused from {}: {}", request.getRemoteAddr(), e.getMessage());
            response.setHeader("WWW-Authenticate", "ServiceSignature");
            Refusals.write(response, ProblemDetails.of(HttpStatus.UNAUTHORIZED, "unknown-caller", "Unknown caller",
                    e.getMessage()));
        };
        AuthenticationFilter signature = new AuthenticationFilter(new ProviderManager(new SignedCallers(settings,
                clock)), request -> SignedRequest.unverified(new SignedRequest.Signed(
                request.getHeader(ServiceSignature.NAME), request.getHeader(ServiceSignature.TIMESTAMP),
                request.getHeader(ServiceSignature.SIGNATURE), request.getMethod(), request.getRequestURI(),
                request.getHeader(RootContext.KEY_XID), CachedBody.of(request))));
        signature.setSuccessHandler((request, response, authentication) -> { });
        signature.setFailureHandler(new AuthenticationEntryPointFailureHandler(unknownCaller));
        return ServiceSecurity.stateless(http)
                .securityMatcher(PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.POST, "/reservations"))
                .addFilterBefore(new CachedBody(), BasicAuthenticationFilter.class)
                .addFilterAt(signature, BasicAuthenticationFilter.class)
                .authorizeHttpRequests(rules -> rules.anyRequest().hasAuthority(SignedRequest.RESERVE))
                .exceptionHandling(failures -> failures.authenticationEntryPoint(unknownCaller))
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain operators(HttpSecurity http, AdminTokens tokens, SignInThrottle throttle,
                                  ClusterSignature cluster, Clock clock, Environment environment,
                                  @Value("${springdoc.api-docs.path:/v3/api-docs}") String apiDocsPath,
                                  @Value("${flashstock.api-docs.open:false}") boolean apiDocsOpen) throws Exception {
        ServiceSecurity.stateless(http).securityMatcher(ServiceSecurity.operatorRoutes(apiDocsPath, "/skus/*/stock"));
        ServiceSecurity.adminBearer(http, tokens, throttle);
        http.addFilterBefore(ClusterPeers.filter(cluster, clock, new LocalAddresses(environment)),
                BasicAuthenticationFilter.class);
        return http.authorizeHttpRequests(rules -> {
            ServiceSecurity.managementRules(rules, apiDocsPath, apiDocsOpen);
            rules.requestMatchers(HttpMethod.GET, ClusterPeers.READING)
                    .hasAnyAuthority(AdminTokenIntrospector.ROLE, ClusterPeers.PEER);
            rules.anyRequest().hasAuthority(AdminTokenIntrospector.ROLE);
        }).build();
    }

    @Bean
    @Order(3)
    SecurityFilterChain everyoneElse(HttpSecurity http) throws Exception {
        return ServiceSecurity.stateless(http)
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers(HttpMethod.GET, "/skus/*/available").permitAll()
                        .requestMatchers(HttpMethod.GET, "/console", "/console/", "/console/*",
                                "/webjars/uplot/**").permitAll()
                        .requestMatchers("/error").permitAll()
                        .anyRequest().denyAll())
                .build();
    }
}
