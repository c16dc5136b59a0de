package io.github.flashstock.support.web;

import java.util.List;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Tells each service's admins from anyone else with its {@link AdminTokens} bean (the service defines that bean from its
 * own settings; {@link AdminGuard} says what only the admin may do), and makes Tomcat's own error answers problem
 * documents too ({@link ProblemErrorReportValve}). Imported by both services.
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

    /**
     * @param apiDocsOpen whether the API description ({@code springdoc.api-docs.path}) is open to anyone
     *                    ({@code flashstock.api-docs.open}, true in profile devstack); otherwise it needs the admin
     *                    token
     */
    @Bean
    FilterRegistrationBean<AdminGuard> adminGuard(AdminTokens tokens,
            @Value("${management.endpoints.web.base-path:/actuator}") String basePath,
            @Value("${springdoc.api-docs.path:/v3/api-docs}") String apiDocsPath,
            @Value("${flashstock.api-docs.open:false}") boolean apiDocsOpen) {
        FilterRegistrationBean<AdminGuard> registration = new FilterRegistrationBean<>(
                new AdminGuard(tokens, basePath, apiDocsOpen ? List.of() : List.of(apiDocsPath)));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
