package io.github.flashstock.inventory.reservation;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class TryGates {

    /** The production gate: opens at once. */
    @Bean
    @ConditionalOnMissingBean
    TryGate openTryGate() {
        return (xid, reservationId) -> {
        };
    }
}
