package io.github.flashstock.orderdemo.limits;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code orders.rate-limits}: how many orders ({@code POST /orders}) a buyer and a client address may
 * place, as token buckets ({@code burst} at once, {@code perSecond} earned back each second).
 *
 * @param redisUri   the Redis the buckets live in, shared by every instance ({@code redis://host:port}); blank: each
 *                   instance keeps its own. While it cannot be reached, each instance counts on its own and tries it
 *                   again after {@code retryAfter}
 * @param timeout    how long one bucket's check waits for that Redis
 * @param retryAfter how long an instance counts on its own after the Redis failed it
 * @param perBuyer   per buyer (the token's subject)
 * @param perAddress per client address, as Tomcat sees it (set {@code server.forward-headers-strategy} behind a
 *                   proxy, or every buyer shares the proxy's address)
 */
@ConfigurationProperties("orders.rate-limits")
public record OrderRateSettings(String redisUri, @DefaultValue("50ms") Duration timeout,
                                @DefaultValue("5s") Duration retryAfter, @DefaultValue Limit perBuyer,
                                @DefaultValue Limit perAddress) {

    /** A bucket: {@code burst} orders at once, {@code perSecond} earned back each second. */
    public record Limit(@DefaultValue("5") long perSecond, @DefaultValue("10") long burst) {
        public Limit {
            if (perSecond < 1 || burst < 1) {
                throw new IllegalArgumentException("a rate limit needs at least 1 per second and a burst of 1, not "
                        + perSecond + "/s and " + burst);
            }
        }
    }
}
