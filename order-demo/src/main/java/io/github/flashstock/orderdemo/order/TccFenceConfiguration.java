package io.github.flashstock.orderdemo.order;

import javax.sql.DataSource;
import org.apache.seata.common.Constants;
import org.apache.seata.common.holder.ObjectHolder;
import org.apache.seata.rm.fence.SpringFenceConfig;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Seata's TCC fence for the order branch ({@code useTCCFence = true}), configured here because Seata 2.5.0's own
 * auto-configuration cannot load on Spring Boot 4 (it imports Boot 3's {@code TransactionAutoConfiguration}). The
 * same bean it would make: the fence log on the orders database, in the transactions of its transaction manager,
 * table and clean-up period from {@code seata.tcc.fence.*}, published where Seata's TCC interceptor looks it up.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "seata.enabled", matchIfMissing = true)
class TccFenceConfiguration {

    @Bean
    @ConfigurationProperties("seata.tcc.fence")
    SpringFenceConfig springFenceConfig(DataSource dataSource, PlatformTransactionManager transactions) {
        SpringFenceConfig config = new SpringFenceConfig(dataSource, transactions);
        ObjectHolder.INSTANCE.setObject(Constants.BEAN_NAME_SPRING_FENCE_CONFIG, config);
        return config;
    }
}
