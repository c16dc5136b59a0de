package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.support.web.AdminGuard;
import io.github.flashstock.support.web.AdminOnly;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses {@code /admin/**} to anyone but the admin: a request on which {@link AdminGuard} did not find
 * {@code Authorization: Bearer <orders.admin-token>} is answered 401 (problem {@code admin-token-required}). Those
 * paths need no buyer token ({@code BuyerSecurity} leaves them open to this check).
 */
@Configuration(proxyBeanMethods = false)
class AdminOnlyPaths implements WebMvcConfigurer {

    private static final String[] PATHS = {"/admin", "/admin/**"};

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdminOnly()).addPathPatterns(PATHS);
    }
}
