package io.github.flashstock.support.db;

import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts every data source of the service behind an {@link OpenTransactionGuard}, so that no connection goes back to
 * the pool inside a transaction the pool does not know of. Imported by both services.
 */
@Configuration(proxyBeanMethods = false)
public class OpenTransactions {

    @Bean
    static BeanPostProcessor openTransactionGuards(ObjectProvider<MeterRegistry> meters) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof DataSource ds && !(bean instanceof OpenTransactionGuard)) {
                    return new OpenTransactionGuard(ds, beanName,
                            meters.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new));
                }
                return bean;
            }
        };
    }
}
