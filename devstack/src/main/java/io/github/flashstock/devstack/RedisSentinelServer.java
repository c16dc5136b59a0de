package io.github.flashstock.devstack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A primary, its replica and three Sentinels on 127.0.0.1 ({@code devstack.redis-sentinel.base-port}: the primary,
 * the replica, then the Sentinels). Both data nodes run AOF with {@code appendfsync always}. Every cold start
 * creates the layout afresh; a node a drill killed starts again from its own files, and the Sentinels make a primary
 * that was replaced meanwhile a replica of its successor.
 */
final class RedisSentinelServer extends Server {

    RedisSentinelServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "redis-sentinel";
    }

    @Override
    List<Integer> ports() {
        return config.sentinelPorts();
    }

    @Override
    int processCount() {
        return config.sentinelPorts().size();
    }

    @Override
    void launch() {
        wipeDir();
        int primary = config.sentinelPrimaryPort();
        for (int port : config.sentinelDataPorts()) {
            Path nodeDir = ensureDir(dir().resolve(Integer.toString(port)));
            write(nodeDir.resolve("redis.conf"), RedisConf.sentinelData(port, nodeDir, port == primary ? 0 : primary));
            start("node-" + port, nodeDir, List.of());
        }
        for (int port : config.sentinels()) {
            Path sentinelDir = ensureDir(dir().resolve(Integer.toString(port)));
            write(sentinelDir.resolve("redis.conf"), RedisConf.sentinel(port, sentinelDir,
                    DevStackConfig.SENTINEL_MASTER_NAME, primary));
            start("sentinel-" + port, sentinelDir, List.of("--sentinel"));
        }
    }

    private void start(String process, Path dir, List<String> extra) {
        List<String> command = new ArrayList<>(List.of(config.redisTool("server"), dir.resolve("redis.conf").toString()));
        command.addAll(extra);
        Processes.launch(command, dir, log(process), pidFile(process), Map.of());
    }

    /** Processes that died (a drill killed them) start again from their own, possibly rewritten, files. */
    @Override
    boolean launchMissing() {
        for (int port : config.sentinelPorts()) {
            boolean sentinel = config.sentinels().contains(port);
            String process = (sentinel ? "sentinel-" : "node-") + port;
            if (Processes.livePid(pidFile(process), marker()).isPresent()) {
                continue;
            }
            if (!Processes.isFree(port)) {
                throw new IllegalStateException("Redis Sentinel layout port " + port + " is held by another process");
            }
            start(process, dir().resolve(Integer.toString(port)), sentinel ? List.of("--sentinel") : List.of());
        }
        return true;
    }

    @Override
    void awaitReady() {
        for (int port : config.sentinelPorts()) {
            Processes.await("Redis PING on port " + port, config.startTimeout(), () -> Resp.ping(port));
        }
        Processes.await("a primary with its replica in sync, known to three Sentinels", config.startTimeout(),
                this::healthy);
    }

    /**
     * Every Sentinel names the same primary, which answers as a primary and counts one replica whose link is up and
     * whose AOF is written, and each Sentinel knows the other two and the replica.
     */
    @Override
    boolean healthy() {
        try {
            int primary = -1;
            for (int port : config.sentinels()) {
                int named = primaryAsSeenBy(port);
                if (primary != -1 && named != primary) {
                    return false;
                }
                primary = named;
                Object master = Resp.call(port, "SENTINEL", "MASTER", DevStackConfig.SENTINEL_MASTER_NAME);
                if (!(master instanceof List<?> fields) || !"2".equals(field(fields, "num-other-sentinels"))
                        || !"1".equals(field(fields, "num-slaves"))) {
                    return false;
                }
            }
            Object replication = Resp.call(primary, "INFO", "replication");
            if (!(replication instanceof String r) || !r.contains("role:master") || !r.contains("connected_slaves:1")) {
                return false;
            }
            for (int port : config.sentinelDataPorts()) {
                if (port != primary) {
                    Object own = Resp.call(port, "INFO", "replication");
                    if (!(own instanceof String o) || !o.contains("master_link_status:up")) {
                        return false;
                    }
                    // after its first sync the replica rewrites its AOF; until then WAITAOF cannot count it
                    Object persistence = Resp.call(port, "INFO", "persistence");
                    if (!(persistence instanceof String p) || !p.contains("aof_rewrite_in_progress:0")
                            || !p.contains("aof_rewrite_scheduled:0") || p.contains("loading:1")) {
                        return false;
                    }
                }
            }
            return true;
        } catch (IOException | IllegalStateException | ClassCastException | NumberFormatException e) {
            return false;
        }
    }

    /** The primary's port as the Sentinel on {@code sentinelPort} names it now. */
    static int primaryAsSeenBy(int sentinelPort) throws IOException {
        Object address = Resp.call(sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
                DevStackConfig.SENTINEL_MASTER_NAME);
        if (!(address instanceof List<?> hostPort) || hostPort.size() != 2) {
            throw new IllegalStateException("Sentinel " + sentinelPort + " names no primary");
        }
        return Integer.parseInt((String) hostPort.get(1));
    }

    /** The data node the first Sentinel that answers names as the primary now. */
    int primaryPort() {
        for (int port : config.sentinels()) {
            try {
                return primaryAsSeenBy(port);
            } catch (IOException | IllegalStateException e) {
                // this Sentinel does not answer; ask the next one
            }
        }
        throw new IllegalStateException("no Sentinel names a primary");
    }

    private static String field(List<?> flat, String name) {
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            if (name.equals(flat.get(i))) {
                return String.valueOf(flat.get(i + 1));
            }
        }
        return null;
    }
}
