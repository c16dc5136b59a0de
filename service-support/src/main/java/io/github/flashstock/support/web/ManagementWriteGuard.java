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
        if (SAFE.contains(request.getMethod())) {
            return true;
        }
        // Both views of the path, each normalised the way request mapping treats it (path parameters such as
        // ";x=y" dropped, repeated slashes collapsed), so no spelling of a management path slips past the guard.
        String uri = request.getRequestURI().substring(request.getContextPath().length());
        String servlet = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        String name = basePath.substring(basePath.lastIndexOf('/') + 1);
        if (!uri.contains(name) && !servlet.contains(name)) {
            return true; // the common case (an order, a reservation): no normalising on the hot path
        }
        return !underBasePath(normalise(uri)) && !underBasePath(normalise(servlet));
    }

    private boolean underBasePath(String path) {
        return path.equals(basePath) || path.startsWith(basePath + "/");
    }

    static String normalise(String path) {
        return path.replaceAll(";[^/]*", "").replaceAll("/{2,}", "/");
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
