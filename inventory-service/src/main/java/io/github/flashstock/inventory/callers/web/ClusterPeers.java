package io.github.flashstock.inventory.callers.web;

import io.github.flashstock.support.auth.ClusterSignature;
import io.github.flashstock.support.security.Refusals;
import io.github.flashstock.support.web.LocalAddresses;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Another instance of this service reading this one's console reading ({@value #READING}) for the console's view of
 * the whole sale: a request signed with the cluster key ({@link ClusterSignature}) for this instance's own address goes
 * on as {@value #PEER} (that route's only other caller is an admin), and the answer is signed over the request's
 * nonce and the body, so the reader can tell an instance from a stranger registered under the service's name. A
 * request that carries a peer signature that does not verify is 401 {@code unknown-peer}; one without is left to the
 * other rules.
 */
final class ClusterPeers {

    static final String READING = "/admin/console/instance";
    static final String PEER = "ROLE_CLUSTER_PEER";
    static final Duration WINDOW = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(ClusterPeers.class);
    private static final RequestMatcher READINGS = PathPatternRequestMatcher.withDefaults()
            .matcher(HttpMethod.GET, READING);

    private ClusterPeers() {
    }

    static OncePerRequestFilter filter(ClusterSignature cluster, Clock clock, LocalAddresses local) {
        SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();
        return new OncePerRequestFilter() {
            @Override
            protected boolean shouldNotFilter(HttpServletRequest request) {
                return request.getHeader(ClusterSignature.SIGNATURE) == null || !READINGS.matches(request);
            }

            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                                            FilterChain chain) throws ServletException, IOException {
                String nonce = request.getHeader(ClusterSignature.NONCE);
                Optional<String> refusal = cluster.verifyRequest(request.getMethod(), request.getRequestURI(),
                        request.getHeader(ClusterSignature.TIMESTAMP), nonce,
                        request.getHeader(ClusterSignature.TARGET), request.getHeader(ClusterSignature.SIGNATURE),
                        local::isThisServer, clock.instant(), WINDOW);
                if (refusal.isPresent()) {
                    log.warn("console reading refused to {}: {}", request.getRemoteAddr(), refusal.get());
                    Refusals.write(response, ProblemDetails.of(HttpStatus.UNAUTHORIZED, "unknown-peer",
                            "Unknown peer", refusal.get() + "; nothing was read"));
                    return;
                }
                SecurityContext context = contexts.createEmptyContext();
                context.setAuthentication(new PreAuthenticatedAuthenticationToken("cluster-peer", null,
                        List.of(new SimpleGrantedAuthority(PEER))));
                contexts.setContext(context);
                ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
                try {
                    chain.doFilter(request, answer);
                    answer.setHeader(ClusterSignature.SIGNATURE,
                            cluster.signResponse(nonce, answer.getContentAsByteArray()));
                    answer.copyBodyToResponse();
                } finally {
                    contexts.clearContext();
                }
            }
        };
    }
}
