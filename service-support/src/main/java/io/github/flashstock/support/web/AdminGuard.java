package io.github.flashstock.support.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tells an admin from anyone else, on every request of a service.
 * <ul>
 *   <li>A request whose {@code Authorization} header carries one of the {@link AdminTokens} goes on as the admin that
 *   token identifies: its {@code getUserPrincipal()} is named after the admin ({@value AdminTokens#ADMIN}, or a named
 *   token's name) and {@code isUserInRole(}{@value #ROLE}{@code )} holds. What only an admin may see or do reads it
 *   there: the health endpoint's details ({@code show-details: when-authorized}, {@code roles: ADMIN}), the
 *   inventory's {@code /admin/**}, the actor its repairs' audit records.</li>
 *   <li>Refused without it (401 problem {@code admin-token-required}): every request under the management base path
 *   that could change something (any method but GET, HEAD and OPTIONS: {@code POST /actuator/refresh}, logger
 *   levels, ...), and every request under the admin-only paths (the API description, outside profile devstack).</li>
 * </ul>
 * Everything else goes on unchanged: health's status, metrics, the application's own endpoints.
 */
public class AdminGuard extends OncePerRequestFilter {

    /** The role an admin's request is in. */
    public static final String ROLE = "ADMIN";

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    private final AdminTokens tokens;
    private final String managementPath;
    private final List<String> adminOnlyPaths;
    /** The last segment of each guarded path: a request whose path contains none of them is never guarded. */
    private final List<String> guardedNames;

    /**
     * @param managementPath the management base path ({@code /actuator}): writes under it need the admin
     * @param adminOnlyPaths path prefixes under which every request needs the admin ({@code /v3/api-docs})
     */
    public AdminGuard(AdminTokens tokens, String managementPath, List<String> adminOnlyPaths) {
        this.tokens = tokens;
        this.managementPath = withoutTrailingSlash(managementPath);
        this.adminOnlyPaths = adminOnlyPaths.stream().filter(p -> !p.isBlank()).map(AdminGuard::withoutTrailingSlash)
                .toList();
        List<String> names = new ArrayList<>(List.of(lastSegment(this.managementPath)));
        this.adminOnlyPaths.forEach(p -> names.add(lastSegment(p)));
        this.guardedNames = List.copyOf(names);
    }

    /** True when the request goes on as an admin (the filter found an admin token on it). */
    public static boolean isAdmin(HttpServletRequest request) {
        return request.isUserInRole(ROLE);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<String> admin = tokens.caller(request.getHeader("Authorization"));
        if (admin.isPresent()) {
            chain.doFilter(new AdminRequest(request, new Admin(admin.get())), response);
        } else if (needsAdmin(request)) {
            AdminTokens.refuse(response);
        } else {
            chain.doFilter(request, response);
        }
    }

    private boolean needsAdmin(HttpServletRequest request) {
        // Both views of the path, each normalised the way request mapping treats it (path parameters such as
        // ";x=y" dropped, repeated slashes collapsed), so no spelling of a guarded path slips past.
        String uri = request.getRequestURI().substring(request.getContextPath().length());
        String servlet = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (guardedNames.stream().noneMatch(name -> uri.contains(name) || servlet.contains(name))) {
            return false; // the common case (an order, a reservation): no normalising on the hot path
        }
        for (String path : List.of(normalise(uri), normalise(servlet))) {
            if (!SAFE.contains(request.getMethod()) && under(path, managementPath)) {
                return true;
            }
            if (adminOnlyPaths.stream().anyMatch(path::startsWith)) {
                return true;
            }
        }
        return false;
    }

    private static boolean under(String path, String base) {
        return path.equals(base) || path.startsWith(base + "/");
    }

    static String normalise(String path) {
        return path.replaceAll(";[^/]*", "").replaceAll("/{2,}", "/");
    }

    private static String withoutTrailingSlash(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static String lastSegment(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The admin a request goes on as. */
    record Admin(String name) implements Principal {
        @Override
        public String getName() {
            return name;
        }
    }

    /** The request as the admin made it. */
    private static final class AdminRequest extends HttpServletRequestWrapper {

        private final Admin admin;

        AdminRequest(HttpServletRequest request, Admin admin) {
            super(request);
            this.admin = admin;
        }

        @Override
        public Principal getUserPrincipal() {
            return admin;
        }

        @Override
        public String getRemoteUser() {
            return admin.name();
        }

        @Override
        public boolean isUserInRole(String role) {
            return ROLE.equals(role) || super.isUserInRole(role);
        }
    }
}
