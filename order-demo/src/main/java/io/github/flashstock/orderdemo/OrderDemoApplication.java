package io.github.flashstock.orderdemo;

import io.github.flashstock.support.db.OpenTransactions;
import io.github.flashstock.support.security.ServiceSecurity;
import io.github.flashstock.support.web.AdminTokens;
import io.github.flashstock.support.web.RequestLimits;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

// Seata 2.5.0's fence and saga auto-configurations import Boot 3 classes that Boot 4 moved (fixed in Seata 2.6.0,
// not served here): excluded; the order branch keeps its own fence, its order row (OrderGroups)
@SpringBootApplication(excludeName = {
        "org.apache.seata.spring.boot.autoconfigure.SeataSpringFenceAutoConfiguration",
        "org.apache.seata.spring.boot.autoconfigure.SeataSagaAutoConfiguration"})
@Import({ServiceSecurity.class, RequestLimits.class, OpenTransactions.class})
public class OrderDemoApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderDemoApplication.class, args);
    }

    /** The operator's token: {@code /admin/**} and the management endpoints, {@code POST /actuator/refresh} among them. */
    @Bean
    AdminTokens adminToken(@Value("${orders.admin-token:}") String configured) {
        return AdminTokens.resolve(configured, "ORDER_DEMO_ADMIN_TOKEN");
    }
}
