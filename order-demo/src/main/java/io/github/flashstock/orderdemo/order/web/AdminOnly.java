package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.support.web.AdminGuard;
import io.github.flashstock.support.web.AdminTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses {@code /admin/**} to anyone but the admin: a request on which {@link AdminGuard} did not find
 * {@code Authorization: Bearer <orders.admin-token>} is answered 401 (problem {@code admin-token-required}). Those
 * paths need no buyer token ({@code BuyerSecurity} leaves them open to this check).
 */
@Configuration(proxyBeanMethods = false)
class AdminOnly implements HandlerInterceptor, WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/admin", "/admin/**");
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
