package io.github.flashstock.inventory.catalog.web;

import io.github.flashstock.support.web.AdminGuard;
import io.github.flashstock.support.web.AdminOnly;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses {@code /admin/**} and the stock view ({@code GET /skus/{id}/stock}, see {@link StockController}) to anyone
 * but the admin: a request that {@link AdminGuard} did not find {@code Authorization: Bearer <inventory.admin-token>}
 * on is answered 401 (problem {@code admin-token-required}).
 */
@Configuration
class AdminPaths implements WebMvcConfigurer {

    private static final String[] PATHS = {"/admin/**", "/skus/*/stock"};

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdminOnly()).addPathPatterns(PATHS);
    }
}
