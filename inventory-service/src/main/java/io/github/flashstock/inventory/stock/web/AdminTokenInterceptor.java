package io.github.flashstock.inventory.stock.web;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Refuses {@code /admin/**} without {@code Authorization: Bearer <inventory.admin-token>} (401 problem). */
@Configuration
class AdminTokenInterceptor implements HandlerInterceptor, WebMvcConfigurer {

    private final InventorySettings settings;

    AdminTokenInterceptor(InventorySettings settings) {
        this.settings = settings;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/admin/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws Exception {
        String header = request.getHeader("Authorization");
        String expected = "Bearer " + settings.adminToken();
        if (header != null && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8))) {
            return true;
        }
        response.setStatus(HttpStatus.UNAUTHORIZED.value());
        response.setContentType("application/problem+json");
        response.setHeader("WWW-Authenticate", "Bearer");
        response.getWriter().write("{\"type\":\"" + ProblemDetails.TYPE_PREFIX + "admin-token-required\",\"title\":"
                + "\"Admin token required\",\"status\":401,\"detail\":\"send Authorization: Bearer <admin token>\"}");
        return false;
    }
}
