package io.github.flashstock.support.web;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/**
 * The request size limits both services apply before parsing: bodies above {@code flashstock.http.max-body-size}
 * (64KB unless set) are refused with 413 ({@link BodySizeLimit}). Headers are bounded by Tomcat
 * ({@code server.max-http-request-header-size} in each service's application.yml). Imported by both services.
 */
@Configuration(proxyBeanMethods = false)
public class RequestLimits {

    @Bean
    FilterRegistrationBean<BodySizeLimit> bodySizeLimit(
            @Value("${flashstock.http.max-body-size:64KB}") DataSize maxBodySize) {
        FilterRegistrationBean<BodySizeLimit> registration =
                new FilterRegistrationBean<>(new BodySizeLimit(maxBodySize.toBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
