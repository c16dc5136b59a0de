package io.github.flashstock.inventory.catalog.web;

import io.github.flashstock.support.web.AdminGuard;
import io.github.flashstock.support.web.AdminTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses {@code /admin/**} and the stock view ({@code GET /skus/{id}/stock}, see {@link StockController}) to anyone
 * but the admin: a request that {@link AdminGuard} did not find {@code Authorization: Bearer <inventory.admin-token>}
 * on is answered 401 (problem {@code admin-token-required}).
 */
@Configuration
class AdminTokenInterceptor implements HandlerInterceptor, WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/admin/**", "/skus/*/stock");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws Exception {
        if (AdminGuard.isAdmin(request)) {
            return true;
        }
        AdminTokens.refuse(response);
        return false;
    }
}
