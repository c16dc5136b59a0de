package io.github.flashstock.inventory;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.reservation.HeldTryGate;
import io.github.flashstock.inventory.reservation.RecordedStockEvents;
import io.github.flashstock.support.auth.ServiceSignature;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureTestRestTemplate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole inventory service on the devstack's Redis, MariaDB, Seata TC and RocketMQ, on a random port. Every subclass
 * shares one Spring context (same configuration), so the service starts once per test run. Metrics export
 * stays on, as in production. Profile devstack, as the harness runs it: the devstack's passwords are accepted.
 */
@AutoConfigureMetrics
@AutoConfigureTestRestTemplate
@DevStackTest({Component.REDIS, Component.MARIADB, Component.SEATA, Component.ROCKETMQ})
@Import(InventoryITSupport.Gates.class)
@ActiveProfiles("devstack")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"inventory.admin-token=" + InventoryITSupport.ADMIN_TOKEN,
                "inventory.callers.keys." + InventoryITSupport.CALLER + "=" + InventoryITSupport.CALLER_KEY,
                "inventory.reconciliation.interval=1h",
                "inventory.reconciliation.overdue-after=2s",
                "inventory.reconciliation.session-overdue-after=2s",
                "inventory.reconciliation.ledger-grace=1h",
                "inventory.reconciliation.drift-recheck=200ms",
                // the tests of other features count units in Redis; the MySQL store's tests give SKUs reserves of
                // their own (a handover, or inventory.mysql-store.allotment.skus through LiveConfig), and the rebalancer
                // runs when a test asks for a round (or the allotments' settings change, or the Redis breaker closes)
                "inventory.mysql-store.allotment.default=0",
                "inventory.mysql-store.rebalance-interval=1h"})
public abstract class InventoryITSupport {

    public static final String ADMIN_TOKEN = "test-admin-token";

    /** The service the tests reserve as, and its signing key ({@code inventory.callers.keys}). */
    public static final String CALLER = "order-demo";
    public static final String CALLER_KEY = "inventory-it-signing-key-of-order-demo-0123456789";

    /** A request header that asks the tests' client to send the request unsigned (removed before it is sent). */
    public static final String UNSIGNED = "X-Test-Unsigned";

    static {
        LiveConfig.ensureInstalled();
    }

    @org.springframework.beans.factory.annotation.Autowired
    private io.github.flashstock.inventory.redis.RedisHealth redisBreaker;

    /**
     * Every test starts with Redis's breaker closed: a test that stopped or restarted Redis waits for it itself, but
     * the breaker may still be testing Redis (half-open) when the next test class begins, which would send that class's
     * phases to the MySQL store. Waiting here makes a test's result independent of the class that ran before it.
     */
    @org.junit.jupiter.api.BeforeEach
    void redisBreakerClosed() {
        org.awaitility.Awaitility.await("the Redis breaker closed (state " + redisBreaker.state() + ")")
                .atMost(java.time.Duration.ofSeconds(30)).until(redisBreaker::healthy);
    }

    /**
     * Lets a test hold a Try between its branch registration and its script, see the stock events, and move the
     * service's clock forward.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class Gates {
        @Bean
        HeldTryGate heldTryGate() {
            return new HeldTryGate();
        }

        @Bean
        RecordedStockEvents recordedStockEvents() {
            return new RecordedStockEvents();
        }

        @Bean
        @Primary
        AdjustableClock adjustableClock() {
            return new AdjustableClock();
        }

        /**
         * The tests' HTTP client reserves as a known service: it signs every {@code POST /reservations} that does not
         * carry a signature of its own (a test of a forged or missing one sets the headers itself).
         */
        @Bean
        org.springframework.boot.restclient.RestTemplateCustomizer signedReservations() {
            byte[] key = CALLER_KEY.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return template -> template.getInterceptors().add((request, body, execution) -> {
                if ("/reservations".equals(request.getURI().getPath())
                        && !request.getHeaders().containsHeader(ServiceSignature.SIGNATURE)
                        && !request.getHeaders().containsHeader(UNSIGNED)) {
                    ServiceSignature.sign(CALLER, key, request.getMethod().name(), request.getURI().getRawPath(),
                            request.getHeaders().getFirst("TX_XID"), body, java.time.Instant.now())
                            .writeTo(request.getHeaders()::set);
                }
                request.getHeaders().remove(UNSIGNED);
                return execution.execute(request, body);
            });
        }
    }

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        Endpoints e = SharedStack.endpoints();
        registry.add("spring.data.redis.host", e::redisHost);
        registry.add("spring.data.redis.port", e::redisPort);
        registry.add("spring.datasource.url", () -> e.jdbcUrl("inventory"));
        registry.add("spring.datasource.username", () -> e.dbUser("inventory"));
        registry.add("spring.datasource.password", e::dbPassword);
        registry.add("seata.service.grouplist.default", e::seataAddress);
        registry.add("rocketmq.name-server", e::namesrvAddress);
        registry.add("inventory.reconciliation.seata-console.url", e::seataConsoleUrl);
    }
}
