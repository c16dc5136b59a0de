package io.github.flashstock.bench;

import io.github.flashstock.devstack.Endpoints;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A replica of the devstack's Redis that the benchmark starts for its {@code inventory.durability: replica} row and
 * stops by its own process handle afterwards: {@code valkey-server --replicaof} (or {@code redis-server}: the
 * devstack's kind) on 127.0.0.1, no persistence (or an AOF that fsyncs every write), its files in a temporary folder. The port is {@code -Dbench.replica-port}, or a free one.
 */
final class BenchReplica implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final int port;

    private BenchReplica(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Starts the replica and returns once its link to the primary is up (the first sync done). */
    static BenchReplica start(Endpoints primary) throws IOException, InterruptedException {
        return start(primary, false);
    }

    /**
     * As {@link #start(Endpoints)}; with {@code aof} the replica keeps an AOF and fsyncs every write
     * ({@code appendfsync always}), as {@code inventory.durability: fsync-and-replica} needs, and the call returns
     * once the rewrite of its AOF after the first sync is done too.
     */
    static BenchReplica start(Endpoints primary, boolean aof) throws IOException, InterruptedException {
        int port = Integer.getInteger("bench.replica-port", freePort());
        Path dir = Files.createTempDirectory("bench-replica");
        List<String> command = new java.util.ArrayList<>(List.of(primary.config().redisTool("server"), "--bind",
                "127.0.0.1", "--port", Integer.toString(port), "--replicaof", primary.redisHost(),
                Integer.toString(primary.redisPort()), "--save", "", "--dir", dir.toString(), "--logfile",
                "replica.log"));
        command.addAll(aof ? List.of("--appendonly", "yes", "--appendfsync", "always") : List.of("--appendonly", "no"));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        BenchReplica replica = new BenchReplica(process, dir, port);
        try {
            replica.awaitLinkUp(Duration.ofSeconds(60));
        } catch (RuntimeException | InterruptedException e) {
            replica.close();
            throw e;
        }
        return replica;
    }

    private void awaitLinkUp(Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the replica exited; see " + dir.resolve("replica.log"));
                }
                try (StatefulRedisConnection<String, String> c = client.connect()) {
                    String persistence = c.sync().info("persistence");
                    if (c.sync().info("replication").contains("master_link_status:up")
                            && persistence.contains("aof_rewrite_in_progress:0")
                            && persistence.contains("aof_rewrite_scheduled:0")) {
                        return;
                    }
                } catch (RuntimeException notYet) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException("the replica's link to the primary was not up within " + atMost);
        } finally {
            client.shutdown();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
