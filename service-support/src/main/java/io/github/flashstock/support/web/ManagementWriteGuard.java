package io.github.flashstock.support.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets anyone read the management endpoints (health, metrics, Prometheus) but requires the admin token for every
 * request that could change something ({@code POST /actuator/refresh}, logger levels, ...): any method but GET,
 * HEAD and OPTIONS under the management base path. Unauthorised: 401 problem {@code admin-token-required}.
 */
public class ManagementWriteGuard extends OncePerRequestFilter {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    private final AdminToken token;
    private final String basePath;

    public ManagementWriteGuard(AdminToken token, String basePath) {
        this.token = token;
        this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean management = path.equals(basePath) || path.startsWith(basePath + "/");
        return !management || SAFE.contains(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (token.accepts(request.getHeader("Authorization"))) {
            chain.doFilter(request, response);
        } else {
            AdminToken.refuse(response);
        }
    }
}
