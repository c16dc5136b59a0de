package io.github.flashstock.support.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Lets a request through only when {@link AdminGuard} found the admin's token on it; anyone else is answered 401
 * (problem {@code admin-token-required}, {@link AdminTokens#refuse}). Each service registers it on its admin paths.
 */
public final class AdminOnly implements HandlerInterceptor {

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
