package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis restarted with its dataset on disk answers {@code LOADING} to every Try until it has read it back; the
 * service says so (OUT_OF_SERVICE) instead of UP. A private Redis server (the devstack's kind: valkey-server or redis-server) of this test's own, on a free loopback
 * port, made to load slowly ({@code key-load-delay}) so the window can be seen.
 */
class RedisDatasetHealthIT {

    private final List<Process> started = new ArrayList<>();
    private LettuceConnectionFactory factory;

    @AfterEach
    void stop() throws InterruptedException {
        if (factory != null) {
            factory.destroy();
        }
        for (Process p : started) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private Process redis(Path dir, int port, String... more) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                io.github.flashstock.devstack.DevStackConfig.fromEnvironment().redisTool("server"), "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", "", "--appendonly", "no"));
        cmd.addAll(List.of(more));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis-" + started.size() + ".log").toFile()).start();
        started.add(p);
        return p;
    }

    @Test
    void outOfServiceWhileRedisLoadsItsDatasetAndUpOnceItHas() throws Exception {
        Path dir = Files.createTempDirectory("redis-dataset-it");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // Given a Redis with 20,000 keys saved to disk...
        Process first = redis(dir, port);
        // the service's command timeout (spring.data.redis.timeout: 2s), so that "Redis away" answers as quickly
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> "PONG".equals(
                redis.execute((RedisCallback<String>) c -> c.ping())));
        RedisDatasetHealth health = new RedisDatasetHealth(factory);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        String runBefore = (String) health.health().getDetails().get("runId");
        redis.executePipelined((RedisCallback<Object>) c -> {
            for (int i = 0; i < 20_000; i++) {
                c.stringCommands().set(("k" + i).getBytes(), "v".getBytes());
            }
            return null;
        });
        redis.execute((RedisCallback<Object>) c -> {
            c.serverCommands().save();
            return null;
        });
        first.destroy();
        assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(health.health().getStatus()).as("Redis away").isEqualTo(Status.DOWN);

        // ... restarted, reading it back slowly (about 2 s)
        redis(dir, port, "--key-load-delay", "100", "--loading-process-events-interval-bytes", "1024");

        // Then the service reports it out of service while it loads, and up (a new run id) once it has
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> health.health().getStatus().equals(Status.OUT_OF_SERVICE));
        Health loading = health.health();
        assertThat(loading.getDetails()).containsEntry("loading", true).containsKey("loadedPercent");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> health.health().getStatus().equals(Status.UP));
        assertThat(health.health().getDetails().get("runId")).isNotEqualTo(runBefore);
        assertThat(redis.execute((RedisCallback<Long>) c -> c.serverCommands().dbSize()))
                .isEqualTo(20_000L);
    }
}
