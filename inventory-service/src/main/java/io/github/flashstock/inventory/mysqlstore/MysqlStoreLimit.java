package io.github.flashstock.inventory.mysqlstore;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * How many Tries per second this instance may send to the MySQL store: resilience4j's rate limiter {@value #NAME},
 * sized by {@code inventory.mysql-store.tries-per-second}, which applies live. A Try over the limit is refused at once
 * (it never waits), so that a Redis outage does not turn into a MariaDB overload. A value that is not a whole number
 * from 1 to 100,000 is rejected (WARN log, counter {@code inventory.mysql-store.rate.rejected}) and the rate in force
 * stays.
 */
@Component
class MysqlStoreLimit {

    static final String NAME = "inventory-mysql-store";
    static final String KEY = "inventory.mysql-store.tries-per-second";
    static final int DEFAULT = 200;
    private static final Logger log = LoggerFactory.getLogger(MysqlStoreLimit.class);

    private final RateLimiter limiter;
    private final Environment environment;
    private final MeterRegistry meters;
    private volatile int inForce;

    MysqlStoreLimit(RateLimiterRegistry registry, Environment environment, MeterRegistry meters) {
        this.environment = environment;
        this.meters = meters;
        this.inForce = read(DEFAULT);
        this.limiter = registry.rateLimiter(NAME, RateLimiterConfig.custom()
                .limitForPeriod(inForce)
                .limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ZERO)
                .build());
    }

    /** Takes one permit if there is one now; never waits. */
    boolean tryAcquire() {
        return limiter.acquirePermission();
    }

    /** Tries per second in force. */
    int perSecond() {
        return inForce;
    }

    @EventListener
    void changed(EnvironmentChangeEvent event) {
        if (event.getKeys().contains(KEY)) {
            int rate = read(inForce);
            if (rate != inForce) {
                log.info("MySQL store: {} Tries per second (was {})", rate, inForce);
                inForce = rate;
                limiter.changeLimitForPeriod(rate);
            }
        }
    }

    private int read(int stays) {
        String raw = environment.getProperty(KEY);
        if (raw == null) {
            return DEFAULT;
        }
        try {
            int rate = Integer.parseInt(raw.trim());
            if (rate >= 1 && rate <= 100_000) {
                return rate;
            }
        } catch (NumberFormatException e) {
            // rejected below
        }
        log.warn("Rejected {} = '{}' (a whole number of Tries per second from 1 to 100000); {} stays in force", KEY,
                raw, stays);
        meters.counter("inventory.mysql-store.rate.rejected").increment();
        return stays;
    }
}
