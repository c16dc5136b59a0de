package io.github.flashstock.support.security;

import io.github.flashstock.support.web.AdminTokens;
import io.github.flashstock.support.web.ProblemErrorReportValve;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * What both services' security shares, imported by each (its own {@code SecurityFilterChain}s say who may call what).
 * <ul>
 *   <li>Every chain is stateless (credentials in headers, no session, no cookie, so no CSRF token), answers its refusals
 *   as problems ({@link Refusals}), and sends the same strict headers ({@link #strictHeaders}).</li>
 *   <li>The operators' routes ({@link #operatorRoutes}: the management endpoints, the API description, {@code /admin/**})
 *   take an admin's bearer token ({@link AdminTokenIntrospector}); failed attempts are throttled per address
 *   ({@link SignInThrottle}). Health's status is for anyone (what a readiness probe reads), its details and every
 *   other management endpoint (metrics and Prometheus included) for an admin only.</li>
 *   <li>A request the firewall turns away is a 400 problem; Tomcat's own error pages are problems too
 *   ({@link ProblemErrorReportValve}).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
public class ServiceSecurity {

    /** The content security policy of every answer: nothing inline, nothing from elsewhere, never in a frame. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
            + " frame-ancestors 'none'";

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    /**
     * @param failures failed sign-ins an address may make at once ({@code flashstock.security.failed-sign-ins.failures})
     * @param period   the time in which it earns them back ({@code flashstock.security.failed-sign-ins.period})
     */
    @Bean
    SignInThrottle signInThrottle(@Value("${flashstock.security.failed-sign-ins.failures:20}") long failures,
                                  @Value("${flashstock.security.failed-sign-ins.period:1m}") String period) {
        return new SignInThrottle(failures, DurationStyle.detectAndParse(period));
    }

    /** Spring Security picks this bean up for the requests its firewall turns away. */
    @Bean
    RequestRejectedHandler requestRejected() {
        return Refusals.rejected();
    }

    /**
     * A chain's common ground: stateless, no login forms, strict headers, and a 403 problem for whatever no rule lets
     * in (an anonymous caller included).
     */
    public static HttpSecurity stateless(HttpSecurity http) throws Exception {
        return http
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .headers(ServiceSecurity::strictHeaders)
                .exceptionHandling(failures -> failures.accessDeniedHandler(Refusals.forbidden())
                        .authenticationEntryPoint(Refusals.forbiddenToAnyone()));
    }

    /**
     * {@code nosniff}, no framing, no referrer, and {@link #CONTENT_SECURITY_POLICY} (Spring Security's defaults
     * add the cache headers).
     */
    public static void strictHeaders(
            org.springframework.security.config.annotation.web.configurers.HeadersConfigurer<HttpSecurity> headers) {
        headers.contentTypeOptions(o -> { })
                .frameOptions(o -> o.deny())
                .referrerPolicy(r -> r.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.NO_REFERRER))
                .contentSecurityPolicy(c -> c.policyDirectives(CONTENT_SECURITY_POLICY));
    }

    /**
     * The operators' routes besides a service's own {@code extra} ones: every management endpoint, the API
     * description and its page ({@code apiDocsPath}), and {@code /admin/**}.
     */
    public static RequestMatcher operatorRoutes(String apiDocsPath, String... extra) {
        PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
        java.util.List<RequestMatcher> routes = new java.util.ArrayList<>(java.util.List.of(
                EndpointRequest.toAnyEndpoint(), paths.matcher("/admin"), paths.matcher("/admin/**"),
                paths.matcher(apiDocsPath), paths.matcher(apiDocsPath + ".yaml"), paths.matcher(apiDocsPath + "/**"),
                paths.matcher("/swagger-ui.html"),
                paths.matcher("/swagger-ui/**")));
        for (String path : extra) {
            routes.add(paths.matcher(path));
        }
        return new OrRequestMatcher(routes);
    }

    /**
     * Authentication by an admin's bearer token, and the throttle in front of it. A request without a token goes on
     * anonymous (the rules decide); one with a token that names no admin is a 401 and a failed sign-in.
     */
    public static HttpSecurity adminBearer(HttpSecurity http, AdminTokens tokens, SignInThrottle throttle)
            throws Exception {
        return http
                .oauth2ResourceServer(server -> server
                        .opaqueToken(opaque -> opaque.introspector(new AdminTokenIntrospector(tokens)))
                        .authenticationEntryPoint(Refusals.adminTokenRequired(throttle)))
                .addFilterBefore(throttle.filter(), BearerTokenAuthenticationFilter.class)
                .exceptionHandling(failures -> failures
                        .authenticationEntryPoint(Refusals.adminTokenRequired(throttle)));
    }

    /**
     * The rules of the management endpoints and the API description: health's status for anyone (its details only
     * for an admin, as {@code management.endpoint.health.show-details: when-authorized} says), the API description
     * for anyone when {@code apiDocsOpen} (profile devstack), everything else for an admin.
     */
    public static void managementRules(
            AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules,
            String apiDocsPath, boolean apiDocsOpen) {
        rules.requestMatchers(EndpointRequest.to("health")).permitAll();
        if (apiDocsOpen) {
            rules.requestMatchers(apiDocsPath, apiDocsPath + ".yaml", apiDocsPath + "/**", "/swagger-ui.html",
                    "/swagger-ui/**").permitAll();
        }
    }
}
