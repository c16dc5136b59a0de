package io.github.flashstock.inventory;

import io.github.flashstock.support.auth.ClusterSignature;
import io.github.flashstock.support.db.OpenTransactions;
import io.github.flashstock.support.security.ServiceSecurity;
import io.github.flashstock.support.web.AdminTokens;
import io.github.flashstock.support.web.RequestLimits;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

// Seata 2.5.0's fence and saga auto-configurations import Boot 3 classes that Boot 4 moved (fixed in Seata 2.6.0,
// not served here): excluded; order-demo configures the fence itself (TccFenceConfiguration)
@SpringBootApplication(excludeName = {
        "org.apache.seata.spring.boot.autoconfigure.SeataSpringFenceAutoConfiguration",
        "org.apache.seata.spring.boot.autoconfigure.SeataSagaAutoConfiguration"})
@ConfigurationPropertiesScan
@EnableScheduling
@Import({ServiceSecurity.class, RequestLimits.class, OpenTransactions.class})
public class InventoryServiceApplication {

    /** The operators' tokens: who may use {@code /admin/**} and the management endpoints, and who acted (see {@link AdminTokens}). */
    @Bean
    AdminTokens adminTokens(InventorySettings settings) {
        return AdminTokens.resolve(settings.adminToken(), "INVENTORY_ADMIN_TOKEN", settings.adminTokens(),
                "inventory.admin-tokens");
    }

    /**
     * How the instances prove to each other that they are instances of this service ({@code inventory.cluster.key},
     * environment {@code INVENTORY_CLUSTER_KEY}, the same on every instance; a secret): the console's cluster reads
     * are signed with it, never with an operator's token. Without it, the console shows other instances as not
     * verified and sends them nothing.
     */
    @Bean
    ClusterSignature clusterSignature(@Value("${inventory.cluster.key:}") String key) {
        return ClusterSignature.of("inventory.cluster.key", key);
    }

    /** The service's clock (event times, the reconciler's ages); tests move a clock of their own. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    public static void main(String[] args) {
        SpringApplication.run(InventoryServiceApplication.class, args);
    }
}
