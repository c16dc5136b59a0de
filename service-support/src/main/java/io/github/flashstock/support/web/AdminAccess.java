package io.github.flashstock.support.web;

import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Guards each service's management endpoints with its {@link AdminToken} bean (the service defines that bean from its
 * own settings), and makes Tomcat's own error answers problem documents too ({@link ProblemErrorReportValve}).
 * Imported by both services.
 */
@Configuration(proxyBeanMethods = false)
public class AdminAccess {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Bean
    FilterRegistrationBean<ManagementWriteGuard> managementWriteGuard(AdminToken token,
            @Value("${management.endpoints.web.base-path:/actuator}") String basePath) {
        FilterRegistrationBean<ManagementWriteGuard> registration =
                new FilterRegistrationBean<>(new ManagementWriteGuard(token, basePath));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
