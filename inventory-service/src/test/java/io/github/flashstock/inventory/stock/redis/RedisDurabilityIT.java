package io.github.flashstock.inventory.stock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
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
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The durability the service is told to promise is checked against the real server's settings at start. */
@DevStackTest(Component.REDIS)
class RedisDurabilityIT {

    private final List<Process> started = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        factories.forEach(LettuceConnectionFactory::destroy);
        for (Process p : started) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private LettuceConnectionFactory factory(String host, int port) {
        LettuceConnectionFactory f = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        f.afterPropertiesSet();
        f.start();
        factories.add(f);
        return f;
    }

    /** A private redis-server of this test's own on a free loopback port. */
    private LettuceConnectionFactory redis(String... settings) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("redis-durability-it");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--dir", dir.toString(), "--save", ""));
        cmd.addAll(List.of(settings));
        started.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile())
                .start());
        LettuceConnectionFactory f = factory("127.0.0.1", port);
        for (int i = 0; i < 100; i++) {
            try (var c = f.getConnection()) {
                c.ping();
                return f;
            } catch (RuntimeException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("redis-server on " + port + " did not answer");
    }

    @Test
    void theDevstacksRedisKeepsEveryAcknowledgedTry(Endpoints endpoints) {
        RedisDurability fsync = new RedisDurability(factory(endpoints.redisHost(), endpoints.redisPort()), "fsync");

        fsync.afterPropertiesSet();

        assertThat(fsync.check()).isEmpty();
        assertThat(fsync.level()).isEqualTo(RedisDurability.Level.FSYNC);
    }

    @Test
    void fsyncIsRefusedOnAServerThatFsyncsOnceASecondOrKeepsNoLog() throws Exception {
        LettuceConnectionFactory everysec = redis("--appendonly", "yes", "--appendfsync", "everysec");
        LettuceConnectionFactory noLog = redis("--appendonly", "no");

        assertThatThrownBy(() -> new RedisDurability(everysec, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("appendfsync everysec");
        assertThatThrownBy(() -> new RedisDurability(noLog, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("appendonly no");
        // none runs on either, with its warning
        new RedisDurability(everysec, "none").afterPropertiesSet();
        new RedisDurability(noLog, "none").afterPropertiesSet();
    }

    @Test
    void aServerThatWillNotShowItsSettingsCannotPromiseFsync() throws Exception {
        LettuceConnectionFactory hidden = redis("--appendonly", "yes", "--appendfsync", "always",
                "--rename-command", "CONFIG", "\"\"");

        assertThatThrownBy(() -> new RedisDurability(hidden, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("could not be read");
    }

    @Test
    void anUnknownLevelStopsTheStart() {
        assertThatThrownBy(() -> new RedisDurability(null, "replica-maybe"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("fsync or none");
    }
}
