package io.github.flashstock.inventory.stock.web;

import io.github.flashstock.support.web.AdminToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Refuses {@code /admin/**} without {@code Authorization: Bearer <inventory.admin-token>} (401 problem). */
@Configuration
class AdminTokenInterceptor implements HandlerInterceptor, WebMvcConfigurer {

    private final AdminToken token;

    AdminTokenInterceptor(AdminToken token) {
        this.token = token;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/admin/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws Exception {
        if (token.accepts(request.getHeader("Authorization"))) {
            return true;
        }
        AdminToken.refuse(response);
        return false;
    }
}
