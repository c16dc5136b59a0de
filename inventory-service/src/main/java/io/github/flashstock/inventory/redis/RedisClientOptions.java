package io.github.flashstock.inventory.redis;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.common.circuitbreaker.configuration.CircuitBreakerConfigCustomizer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the Redis client behaves while its connection is down: it refuses commands at once instead of queueing them
 * until it has reconnected or the command timeout has passed (Lettuce's default). A refused command was never sent,
 * so a Try refused this way can go to the MySQL store without any risk of having reserved in Redis too
 * ({@link RedisFailures#notSent}); a queued one might have run later, when Redis came back. The client still
 * reconnects on its own, at most a second apart (Lettuce's default backs off to 30 s, which kept the sale on the
 * MySQL store for up to half a minute after Redis was back).
 */
@Configuration(proxyBeanMethods = false)
class RedisClientOptions {

    @Bean
    LettuceClientOptionsBuilderCustomizer rejectCommandsWhileDisconnected() {
        return builder -> builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    }

    /**
     * The Redis breaker counts every Try, Confirm and Cancel, tens of thousands a second from many threads: its
     * window is resilience4j's lock-free one rather than the default, which takes a lock per call.
     */
    @Bean
    CircuitBreakerConfigCustomizer redisBreakerWithoutLocks() {
        return CircuitBreakerConfigCustomizer.of(RedisHealth.NAME, builder -> builder
                .slidingWindowSynchronizationStrategy(CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.LOCK_FREE));
    }

    @Bean
    ClientResourcesBuilderCustomizer reconnectAtLeastEverySecond() {
        return builder -> builder.reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2,
                TimeUnit.MILLISECONDS));
    }
}
