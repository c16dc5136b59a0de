package io.github.flashstock.inventory.callers.web;

import io.github.flashstock.inventory.callers.CallerSettings;
import java.time.Clock;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers {@link SignedCallers} right after the body size limit and before Seata's interceptor binds the request's
 * XID: an unsigned Try never reaches the coordinator.
 */
@Configuration(proxyBeanMethods = false)
class CallersConfiguration {

    @Bean
    FilterRegistrationBean<SignedCallers> signedCallers(CallerSettings settings, Clock clock) {
        FilterRegistrationBean<SignedCallers> registration = new FilterRegistrationBean<>(
                new SignedCallers(settings, clock));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        registration.addUrlPatterns("/reservations");
        return registration;
    }
}
