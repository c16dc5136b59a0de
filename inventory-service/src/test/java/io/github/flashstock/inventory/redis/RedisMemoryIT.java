package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.DevStackConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An evicting Redis is refused: at start for every policy but {@code noeviction}, and while running by keeping the
 * Redis breaker open until the policy is back. A private Redis server of this test's own, on a free loopback port,
 * whose policy the test changes (the shared devstack's is left alone).
 */
class RedisMemoryIT {

    private static Process server;
    private static LettuceConnectionFactory factory;
    private static StringRedisTemplate redis;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("redis-memory-it");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = new ProcessBuilder(DevStackConfig.fromEnvironment().redisTool("server"), "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", "", "--appendonly",
                "no").redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        redis = new StringRedisTemplate(factory);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> "PONG".equals(
                redis.execute((RedisCallback<String>) c -> c.ping())));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        factory.destroy();
        server.destroy();
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }

    private static void policy(String policy) {
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().setConfig("maxmemory-policy", policy);
            return null;
        });
    }

    private RedisHealth health;
    private SimpleMeterRegistry meters;
    private RedisMemory memory;

    @BeforeEach
    void fresh() {
        policy(RedisMemory.SAFE_POLICY);
        health = new RedisHealth(CircuitBreakerRegistry.ofDefaults());
        meters = new SimpleMeterRegistry();
        memory = new RedisMemory(factory, health, meters, 0.8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"volatile-lru", "allkeys-lru", "volatile-lfu", "allkeys-lfu", "volatile-random",
            "allkeys-random", "volatile-ttl"})
    void aRedisThatEvictsStopsTheStartNamingTheNodeTheSettingAndTheFix(String policy) {
        policy(policy);

        assertThatThrownBy(memory::afterPropertiesSet).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maxmemory-policy " + policy)
                .hasMessageContaining("Set maxmemory-policy noeviction")
                .hasMessageContaining("volatile-lru");
    }

    @Test
    void aRedisThatNeverEvictsStartsAndItsMemoryIsMeasured() {
        redis.opsForValue().set("memory-it", "x");

        assertThatCode(memory::afterPropertiesSet).doesNotThrowAnyException();

        assertThat(meters.get("inventory.redis.memory.used").gauge().value()).isPositive();
        assertThat(meters.get("inventory.redis.memory.max").gauge().value()).isZero();
    }

    @Test
    void theHeadroomLeftIsMeasuredAndANodeAboveTheWarningShareIsWarnedOfOnce() {
        memory.afterPropertiesSet();
        assertThat(meters.get("inventory.redis.memory.headroom").gauge().value()).as("no maxmemory").isNaN();
        long used = (long) meters.get("inventory.redis.memory.used").gauge().value();
        try {
            maxmemory(used * 4);
            memory.check();
            assertThat(meters.get("inventory.redis.memory.headroom").gauge().value()).isBetween(0.5, 0.9);
            assertThat(memory.nodes()).singleElement().satisfies(n -> {
                assertThat(n.maxBytes()).isEqualTo(used * 4);
                assertThat(n.warning()).isFalse();
            });

            maxmemory(used + used / 10);
            memory.check();
            memory.check();

            assertThat(meters.get("inventory.redis.memory.headroom").gauge().value()).isLessThan(0.2);
            assertThat(memory.nodes()).singleElement().satisfies(n -> assertThat(n.warning()).isTrue());
            assertThat(meters.get("inventory.redis.memory.warnings").counter().count()).as("once as it crosses")
                    .isEqualTo(1);
            assertThat(health.healthy()).as("a warning, not an outage").isTrue();
        } finally {
            maxmemory(0);
        }
        memory.check();
        assertThat(memory.nodes()).singleElement().satisfies(n -> assertThat(n.warning()).isFalse());
    }

    private static void maxmemory(long bytes) {
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().setConfig("maxmemory", Long.toString(bytes));
            return null;
        });
    }

    @Test
    void aWarningShareOutsideZeroToOneStopsTheStart() {
        assertThatThrownBy(() -> new RedisMemory(factory, health, meters, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inventory.redis.memory-warning");
    }

    @Test
    void aRedisThatStartsEvictingWhileRunningIsNotUsedUntilItStops() {
        memory.afterPropertiesSet();
        assertThat(health.healthy()).isTrue();

        policy("volatile-lru");
        memory.check();

        assertThat(health.healthy()).isFalse();
        assertThat(health.state()).isEqualTo("forced_open");
        assertThatThrownBy(() -> health.call(() -> redis.opsForValue().get("memory-it")))
                .isInstanceOf(RedisUnreachable.class);
        assertThat(meters.counter("inventory.redis.evicting").count()).isEqualTo(1);
        memory.check();
        assertThat(health.state()).as("still evicting").isEqualTo("forced_open");

        policy(RedisMemory.SAFE_POLICY);
        memory.check();

        assertThat(health.testing()).as("tested again before it sells, as after an outage").isTrue();
        assertThatCode(() -> health.probe(() -> redis.opsForValue().get("memory-it"))).doesNotThrowAnyException();
        assertThat(List.of("closed", "half_open")).contains(health.state());
    }
}
