package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.inventory.stock.InitScript;
import io.github.flashstock.inventory.stock.StockKeys;
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
    private final List<Path> dirs = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException, IOException {
        factories.forEach(LettuceConnectionFactory::destroy);
        for (Process p : started) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        for (Path dir : dirs) {
            try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
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

    /** A private Redis server (the devstack's kind: valkey-server or redis-server) of this test's own on a free loopback port. */
    private LettuceConnectionFactory redis(String... settings) throws IOException {
        Path dir = Files.createTempDirectory("redis-durability-it");
        dirs.add(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(SERVER, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--save", ""));
        cmd.addAll(List.of(settings));
        started.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile())
                .start());
        LettuceConnectionFactory f = factory("127.0.0.1", port);
        // it answers once it has started: until then the connection is refused
        await("redis-server on " + port + " answers").atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(50)).ignoreExceptionsInstanceOf(RuntimeException.class)
                .until(() -> {
                    try (var c = f.getConnection()) {
                        c.ping();
                        return true;
                    }
                });
        return f;
    }

    @Test
    void theDevstacksRedisKeepsEveryAcknowledgedTry(Endpoints endpoints) {
        RedisDurability fsync = new RedisDurability(factory(endpoints.redisHost(), endpoints.redisPort()), "fsync");

        fsync.afterPropertiesSet();

        assertThat(fsync.check()).isEmpty();
        assertThat(fsync.level()).isEqualTo(RedisDurability.Level.FSYNC);
    }

    /** The devstack's kind of server: {@code valkey-server} or {@code redis-server}. */
    private static final String SERVER = io.github.flashstock.devstack.DevStackConfig.fromEnvironment()
            .redisTool("server");

    private static boolean hasWaitAof(LettuceConnectionFactory server) {
        try (var c = server.getConnection()) {
            return RedisDurability.hasWaitAof(c.serverCommands().info("server").getProperty("redis_version"));
        }
    }

    /**
     * {@code fsync} needs a server that fsyncs, then replies: one that fsyncs once a second, keeps no log, or
     * never fsyncs on its own ({@code appendfsync no}) is refused, on Valkey 8 as on Redis 7.0.
     */
    @Test
    void fsyncIsRefusedOnAServerThatFsyncsOnceASecondOrKeepsNoLog() throws Exception {
        LettuceConnectionFactory everysec = redis("--appendonly", "yes", "--appendfsync", "everysec");
        LettuceConnectionFactory noLog = redis("--appendonly", "no");
        LettuceConnectionFactory never = redis("--appendonly", "yes", "--appendfsync", "no");

        assertThatThrownBy(() -> new RedisDurability(everysec, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("appendfsync everysec");
        assertThatThrownBy(() -> new RedisDurability(noLog, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("appendonly no");
        assertThatThrownBy(() -> new RedisDurability(never, "fsync").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("appendfsync no");
        // none runs on each, with its warning
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
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fsync, replica, fsync-and-replica or none");
    }

    @Test
    void replicaIsRefusedOnAServerWithoutReplicas() throws Exception {
        LettuceConnectionFactory alone = redis("--appendonly", "no");

        assertThatThrownBy(() -> new RedisDurability(alone, "replica").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("0 replica(s) connected");
    }

    /**
     * Under {@code replica} a Try is answered only once the replica has its writes: read from the replica right
     * after the answer, they are there. With the replica frozen (SIGSTOP), the Try fails after the wait, although
     * its writes are on the primary (the Cancel of its rolled-back transaction releases them); thawed, Tries pass
     * again.
     */
    @Test
    void aTryUnderReplicaIsOnTheReplicaWhenAnsweredAndFailsWhenTheReplicaCannotHaveIt() throws Exception {
        LettuceConnectionFactory primary = redis("--appendonly", "no");
        LettuceConnectionFactory replica = redis("--appendonly", "no", "--replicaof", "127.0.0.1",
                Integer.toString(primary.getPort()));
        Process replicaProcess = started.get(started.size() - 1);
        org.springframework.data.redis.core.StringRedisTemplate onPrimary =
                new org.springframework.data.redis.core.StringRedisTemplate(primary);
        org.springframework.data.redis.core.StringRedisTemplate onReplica =
                new org.springframework.data.redis.core.StringRedisTemplate(replica);
        await().atMost(Duration.ofSeconds(30)).until(() -> "up".equals(
                onReplica.execute((org.springframework.data.redis.core.RedisCallback<java.util.Properties>) c ->
                        c.serverCommands().info("replication")).getProperty("master_link_status")));
        RedisDurability durability = new RedisDurability(primary, "replica", 1, Duration.ofMillis(500), 4);
        durability.afterPropertiesSet();
        try {
            io.github.flashstock.inventory.reservation.TryScript tries =
                    new io.github.flashstock.inventory.reservation.TryScript(onPrimary, durability);
            new InitScript(onPrimary).run("sku-r", 100, 0, 0, 1);
            List<io.github.flashstock.inventory.stock.StockLine> two =
                    List.of(new io.github.flashstock.inventory.stock.StockLine("sku-r", 2));

            for (int i = 1; i <= 20; i++) {
                assertThat(tries.run("xid-" + i, "r-" + i, i, "u-" + i, two))
                        .isInstanceOf(io.github.flashstock.inventory.reservation.TryOutcome.Reserved.class);
                // no waiting: the answer came after the replica had the writes
                assertThat(onReplica.opsForHash().get(StockKeys.stock("sku-r"), "reserved"))
                        .isEqualTo(Long.toString(2L * i));
            }

            signal(replicaProcess, "STOP");
            try {
                assertThatThrownBy(() -> tries.run("xid-frozen", "r-frozen", 99, "u-frozen", two))
                        .isInstanceOf(DurableWait.NotDurable.class).hasMessageContaining("0 of 1 replica");
                assertThat(onPrimary.opsForHash().get(StockKeys.stock("sku-r"), "reserved")).isEqualTo("42");
            } finally {
                signal(replicaProcess, "CONT");
            }
            assertThat(tries.run("xid-after", "r-after", 100, "u-after", two))
                    .isInstanceOf(io.github.flashstock.inventory.reservation.TryOutcome.Reserved.class);
            assertThat(onReplica.opsForHash().get(StockKeys.stock("sku-r"), "reserved")).isEqualTo("44");

            // the second phases wait the same way
            var confirm = new io.github.flashstock.inventory.reservation.ConfirmScript(onPrimary, durability);
            var cancel = new io.github.flashstock.inventory.reservation.CancelScript(onPrimary, durability);
            assertThat(confirm.run("sku-r", "xid-1", "r-1", Duration.ofHours(1), 2, "u-1"))
                    .isInstanceOf(io.github.flashstock.inventory.reservation.PhaseOutcome.Applied.class);
            assertThat(onReplica.opsForHash().get(StockKeys.stock("sku-r"), "sold")).isEqualTo("2");
            signal(replicaProcess, "STOP");
            try {
                assertThatThrownBy(() -> cancel.run("sku-r", "xid-2", "r-2", Duration.ofHours(1)))
                        .isInstanceOf(DurableWait.NotDurable.class);
            } finally {
                signal(replicaProcess, "CONT");
            }
            // the TC calls the failed phase again: a replay (which writes nothing, so its wait covers only what its
            // connection wrote before; the thawed replica catches up on its own)
            assertThat(cancel.run("sku-r", "xid-2", "r-2", Duration.ofHours(1)))
                    .isInstanceOf(io.github.flashstock.inventory.reservation.PhaseOutcome.AlreadyApplied.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> "40".equals(
                    onReplica.opsForHash().get(StockKeys.stock("sku-r"), "reserved")));
        } finally {
            durability.destroy();
        }
    }

    /**
     * {@code fsync-and-replica} ({@code WAITAOF 1 1}): refused at start on Redis 7.0, and on a server whose replica
     * keeps no AOF (the probe write is never on its disk). With a replica that fsyncs every write, a Try is answered
     * once it is on both disks: read from the replica right after, it is there; with the replica frozen, the Try
     * fails although its writes are on the primary; thawed, Tries pass again.
     */
    @Test
    void fsyncAndReplicaWaitsForBothDisksAndIsRefusedWhereItCannot() throws Exception {
        LettuceConnectionFactory primary = redis("--appendonly", "yes", "--appendfsync", "always");
        if (!hasWaitAof(primary)) {
            assertThatThrownBy(() -> new RedisDurability(primary, "fsync-and-replica").afterPropertiesSet())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("without WAITAOF");
            return;
        }
        assertThatThrownBy(() -> new RedisDurability(primary, "fsync-and-replica").afterPropertiesSet())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("0 replica(s) connected");
        LettuceConnectionFactory noLog = redis("--appendonly", "no", "--replicaof", "127.0.0.1",
                Integer.toString(primary.getPort()));
        awaitLinkUp(noLog);
        assertThatThrownBy(() -> new RedisDurability(primary, "fsync-and-replica", 1, Duration.ofMillis(500), 4)
                .afterPropertiesSet()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("probe write").hasMessageContaining("appendonly yes");
        new ProcessBuilder("kill", "-KILL", Long.toString(started.get(started.size() - 1).pid())).start().waitFor();

        LettuceConnectionFactory replica = redis("--appendonly", "yes", "--appendfsync", "always", "--replicaof",
                "127.0.0.1", Integer.toString(primary.getPort()));
        Process replicaProcess = started.get(started.size() - 1);
        awaitLinkUp(replica);
        // after its first sync a replica rewrites its AOF, and until that is done its disk acknowledges nothing
        try (DurableWait probe = new DurableWait(primary::getRequiredNativeClient, true, 1, Duration.ofMillis(200),
                1)) {
            await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(DurableWait.NotDurable.class)
                    .until(() -> probe.run(org.springframework.data.redis.core.script.RedisScript.of(
                            "redis.call('SET', KEYS[1], '1') return {1}", List.class), List.of("probe"), List.of())
                            != null);
        }
        org.springframework.data.redis.core.StringRedisTemplate onPrimary =
                new org.springframework.data.redis.core.StringRedisTemplate(primary);
        org.springframework.data.redis.core.StringRedisTemplate onReplica =
                new org.springframework.data.redis.core.StringRedisTemplate(replica);
        RedisDurability durability = new RedisDurability(primary, "fsync-and-replica", 1, Duration.ofMillis(500), 4);
        durability.afterPropertiesSet();
        try {
            assertThat(durability.shortfalls()).isEmpty();
            var tries = new io.github.flashstock.inventory.reservation.TryScript(onPrimary, durability);
            new InitScript(onPrimary).run("sku-d", 100, 0, 0, 1);
            List<io.github.flashstock.inventory.stock.StockLine> one =
                    List.of(new io.github.flashstock.inventory.stock.StockLine("sku-d", 1));
            for (int i = 1; i <= 10; i++) {
                assertThat(tries.run("xid-" + i, "r-" + i, i, "u-" + i, one))
                        .isInstanceOf(io.github.flashstock.inventory.reservation.TryOutcome.Reserved.class);
                assertThat(onReplica.opsForHash().get(StockKeys.stock("sku-d"), "reserved"))
                        .isEqualTo(Long.toString(i));
            }
            signal(replicaProcess, "STOP");
            try {
                assertThatThrownBy(() -> tries.run("xid-frozen", "r-frozen", 99, "u-frozen", one))
                        .isInstanceOf(DurableWait.NotDurable.class).hasMessageContaining("0 of 1 replica");
            } finally {
                signal(replicaProcess, "CONT");
            }
            // the refused Try's write is on the primary; a replica let go has that backlog to apply and sync first,
            // which on a busy machine can take longer than one call's wait: the promise is for a replica caught up
            await().atMost(Duration.ofSeconds(30)).until(() -> "11".equals(
                    onReplica.opsForHash().get(StockKeys.stock("sku-d"), "reserved")));
            assertThat(tries.run("xid-after", "r-after", 100, "u-after", one))
                    .isInstanceOf(io.github.flashstock.inventory.reservation.TryOutcome.Reserved.class);
            assertThat(onReplica.opsForHash().get(StockKeys.stock("sku-d"), "reserved")).isEqualTo("12");
        } finally {
            durability.destroy();
        }
    }

    private static void awaitLinkUp(LettuceConnectionFactory replica) {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            try (var c = replica.getConnection()) {
                return "up".equals(c.serverCommands().info("replication").getProperty("master_link_status"));
            }
        });
    }

    private static void signal(Process process, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor())
                .isZero();
    }
}
