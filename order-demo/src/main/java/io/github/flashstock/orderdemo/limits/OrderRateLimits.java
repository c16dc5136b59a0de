package io.github.flashstock.orderdemo.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * How many orders a buyer and a client address may place: a Bucket4j token bucket per key, held in Redis so that every
 * order-demo instance draws from the same bucket ({@link OrderRateSettings#redisUri()}). When that Redis cannot be
 * asked (down, slow past {@link OrderRateSettings#timeout()}), this instance counts in buckets of its own for
 * {@link OrderRateSettings#retryAfter()}, logged and counted ({@code orders.rate-limits.local}): a Redis outage never
 * stops the sale, and a buyer's rate is then held per instance.
 */
public final class OrderRateLimits implements DisposableBean {

    /** What a limit decided: allowed, or refused until {@code retryAfterSeconds} from now. */
    public record Decision(boolean allowed, String scope, long retryAfterSeconds) {
        static final Decision ALLOWED = new Decision(true, null, 0);
    }

    private static final Logger log = LoggerFactory.getLogger(OrderRateLimits.class);

    private final OrderRateSettings settings;
    private final BucketConfiguration perBuyer;
    private final BucketConfiguration perAddress;
    private final RedisClient client;
    private volatile StatefulRedisConnection<String, byte[]> connection;
    private volatile ProxyManager<String> shared;
    private final Cache<String, Bucket> local = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofMinutes(10)).build();
    /** Until when (System.nanoTime) this instance counts on its own. */
    private final AtomicLong localUntil = new AtomicLong(System.nanoTime());
    private final MeterRegistry meters;

    public OrderRateLimits(OrderRateSettings settings, MeterRegistry meters) {
        this.settings = settings;
        this.meters = meters;
        this.perBuyer = configuration(settings.perBuyer());
        this.perAddress = configuration(settings.perAddress());
        if (settings.redisUri() == null || settings.redisUri().isBlank()) {
            this.client = null;
            log.warn("Rate limits: no Redis (orders.rate-limits.redis-uri): each instance counts orders on its own");
        } else {
            this.client = RedisClient.create(settings.redisUri().strip());
            this.client.setDefaultTimeout(settings.timeout());
            this.client.setOptions(ClientOptions.builder()
                    .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build()).build());
        }
    }

    /** The buckets in Redis, connecting first if need be; null while this instance counts on its own. */
    private ProxyManager<String> shared() {
        if (client == null || System.nanoTime() - localUntil.get() < 0) {
            return null;
        }
        ProxyManager<String> manager = shared;
        if (manager != null) {
            return manager;
        }
        synchronized (this) {
            if (shared == null && System.nanoTime() - localUntil.get() >= 0) {
                try {
                    connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
                    shared = Bucket4jLettuce.casBasedBuilder(connection)
                            .requestTimeout(settings.timeout())
                            .expirationAfterWrite(ExpirationAfterWriteStrategy
                                    .basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                            .build();
                } catch (RuntimeException e) {
                    countAlone(e);
                }
            }
            return shared;
        }
    }

    private void countAlone(RuntimeException e) {
        localUntil.set(System.nanoTime() + settings.retryAfter().toNanos());
        log.warn("Rate limits: Redis at {} failed ({}); this instance counts on its own for {}", settings.redisUri(),
                e.getMessage(), settings.retryAfter());
    }

    private static BucketConfiguration configuration(OrderRateSettings.Limit limit) {
        return BucketConfiguration.builder()
                .addLimit(l -> l.capacity(limit.burst()).refillGreedy(limit.perSecond(), Duration.ofSeconds(1)))
                .build();
    }

    /** Takes one order from the address's bucket. */
    public Decision address(String address) {
        return take("address", "orders:rate:{address}:" + address, perAddress);
    }

    /** Takes one order from the buyer's bucket. */
    public Decision buyer(String userId) {
        return take("buyer", "orders:rate:{buyer}:" + userId, perBuyer);
    }

    private Decision take(String scope, String key, BucketConfiguration configuration) {
        ConsumptionProbe probe = null;
        ProxyManager<String> buckets = shared();
        if (buckets != null) {
            try {
                probe = buckets.getProxy(key, () -> configuration).tryConsumeAndReturnRemaining(1);
            } catch (RuntimeException e) {
                countAlone(e);
            }
        }
        if (probe == null) {
            meters.counter("orders.rate-limits.local", "scope", scope).increment();
            probe = local.get(key, k -> Bucket.builder().addLimit(configuration.getBandwidths()[0]).build())
                    .tryConsumeAndReturnRemaining(1);
        }
        if (probe.isConsumed()) {
            return Decision.ALLOWED;
        }
        meters.counter("orders.rate-limits.refused", "scope", scope).increment();
        return new Decision(false, scope,
                Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toMillis() / 1000 + 1));
    }

    /**
     * Connects and makes one round trip through a bucket of its own before the first order: the first check of a cold
     * process (the connection, Bucket4j's first compare-and-swap) takes longer than {@link OrderRateSettings#timeout()}
     * and would otherwise send this instance to count on its own for its first seconds. Run once the service is ready;
     * a failure is the same fallback as an order's.
     */
    void warmUp() {
        ProxyManager<String> buckets = shared();
        if (buckets == null) {
            return;
        }
        try {
            buckets.getProxy("orders:rate:{warm-up}", () -> perBuyer).getAvailableTokens();
        } catch (RuntimeException e) {
            log.info("Rate limits: the warm-up round trip to Redis failed ({}); orders will connect again",
                    e.getMessage());
        }
    }

    @Override
    public void destroy() {
        StatefulRedisConnection<String, byte[]> connection = this.connection;
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
