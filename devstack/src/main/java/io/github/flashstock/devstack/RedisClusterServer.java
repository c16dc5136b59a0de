package io.github.flashstock.devstack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Redis Cluster of three masters and three replicas on 127.0.0.1. It is test scaffolding: every cold start
 * creates a fresh, empty cluster (no persistence), which keeps slot ownership predictable.
 */
final class RedisClusterServer extends Server {

    RedisClusterServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "redis-cluster";
    }

    @Override
    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>(config.clusterPorts());
        config.clusterPorts().forEach(p -> ports.add(p + 10000));
        return ports;
    }

    @Override
    int processCount() {
        return config.clusterPorts().size();
    }

    @Override
    void launch() {
        wipeDir();
        for (int port : config.clusterPorts()) {
            Path nodeDir = ensureDir(dir().resolve(Integer.toString(port)));
            Path conf = nodeDir.resolve("redis.conf");
            write(conf, RedisConf.clusterNode(port, nodeDir));
            Processes.launch(List.of(config.redisTool("server"), conf.toString()), nodeDir, log("node-" + port),
                    pidFile("node-" + port), Map.of());
        }
    }

    /**
     * Nodes that died (a drill killed them) start again from their own directory: each rejoins the cluster it
     * knows from its {@code nodes-<port>.conf}, a master that was replaced comes back as a replica of its successor,
     * and the live nodes are left alone.
     */
    @Override
    boolean launchMissing() {
        for (int port : config.clusterPorts()) {
            if (Processes.livePid(pidFile("node-" + port), marker()).isPresent()) {
                continue;
            }
            if (!Processes.isFree(port) || !Processes.isFree(port + 10000)) {
                throw new IllegalStateException("Redis Cluster node ports " + port + "/" + (port + 10000)
                        + " are held by another process");
            }
            Path nodeDir = dir().resolve(Integer.toString(port));
            Processes.launch(List.of(config.redisTool("server"), nodeDir.resolve("redis.conf").toString()), nodeDir,
                    log("node-" + port), pidFile("node-" + port), Map.of());
        }
        return true;
    }

    @Override
    void awaitReady() {
        for (int port : config.clusterPorts()) {
            Processes.await("Redis Cluster node PING on port " + port, config.startTimeout(), () -> Resp.ping(port));
        }
        // only a fresh launch has no cluster yet: a node started again after it died rejoins the cluster the others
        // keep (and the first node is as likely as any to be that one, or to answer before it has read its config)
        if (config.clusterPorts().stream().noneMatch(RedisClusterServer::knowsACluster)) {
            List<String> cmd = new ArrayList<>(List.of(config.redisTool("cli"), "--cluster", "create"));
            config.clusterPorts().forEach(p -> cmd.add("127.0.0.1:" + p));
            cmd.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Processes.run(cmd, dir(), log("cluster-create"), Optional.empty(), config.startTimeout());
        }
        Processes.await("cluster_state:ok on every Redis Cluster node", config.startTimeout(), this::healthy);
    }

    /**
     * Every node reports {@code cluster_state:ok}, knows all six nodes, and sees three masters and three attached
     * replicas: the state turns ok before {@code --cluster create} has made three of the nodes replicas, and each
     * node learns of that through gossip, so every node's own view is checked (clients read the topology from
     * any of them). Each replica must also have finished its first sync with its master ({@code master_link_status:up}):
     * until it has, a manual {@code CLUSTER FAILOVER} on it cannot complete and times out.
     */
    @Override
    boolean healthy() {
        int half = config.clusterPorts().size() / 2;
        for (int port : config.clusterPorts()) {
            try {
                Object info = Resp.call(port, "CLUSTER", "INFO");
                if (!(info instanceof String s) || !s.contains("cluster_state:ok")
                        || !s.contains("cluster_known_nodes:" + config.clusterPorts().size())) {
                    return false;
                }
                Object nodes = Resp.call(port, "CLUSTER", "NODES");
                if (!(nodes instanceof String n)
                        || n.lines().filter(l -> l.contains("master")).count() != half
                        || n.lines().filter(l -> l.contains("slave")).count() != half) {
                    return false;
                }
                Object replication = Resp.call(port, "INFO", "replication");
                if (!(replication instanceof String r)
                        || r.contains("role:slave") && !r.contains("master_link_status:up")) {
                    return false;
                }
            } catch (IOException | IllegalStateException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * The node serving {@code key}'s slot as master now, as the first node that answers sees it: its port and the
     * port of its replica (-1 when it has none).
     */
    int[] masterAndReplicaOf(String key) {
        for (int port : config.clusterPorts()) {
            try {
                long slot = (Long) Resp.call(port, "CLUSTER", "KEYSLOT", key);
                String master = null;
                int masterPort = -1;
                List<String> lines = ((String) Resp.call(port, "CLUSTER", "NODES")).lines().toList();
                for (String line : lines) {
                    String[] f = line.split(" ");
                    if (!f[2].contains("master") || f[2].contains("fail")) {
                        continue;
                    }
                    for (int i = 8; i < f.length; i++) {
                        if (f[i].startsWith("[")) {
                            continue;
                        }
                        String[] range = f[i].split("-");
                        long from = Long.parseLong(range[0]);
                        long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                        if (slot >= from && slot <= to) {
                            master = f[0];
                            masterPort = nodePort(f[1]);
                        }
                    }
                }
                int replicaPort = -1;
                for (String line : lines) {
                    String[] f = line.split(" ");
                    if (f[2].contains("slave") && !f[2].contains("fail") && f[3].equals(master)) {
                        replicaPort = nodePort(f[1]);
                    }
                }
                if (masterPort > 0) {
                    return new int[] {masterPort, replicaPort};
                }
            } catch (IOException | IllegalStateException | ClassCastException e) {
                // this node does not answer; ask the next one
            }
        }
        throw new IllegalStateException("no Redis Cluster node names a master for " + key);
    }

    /** {@code master} or {@code slave}, as the node on {@code port} says; empty when it does not answer. */
    static String role(int port) {
        try {
            Object replication = Resp.call(port, "INFO", "replication");
            if (replication instanceof String r) {
                return r.lines().filter(l -> l.startsWith("role:")).map(l -> l.substring(5).trim()).findFirst()
                        .orElse("");
            }
        } catch (IOException | IllegalStateException e) {
            // down
        }
        return "";
    }

    /** {@code 127.0.0.1:16381@26381} to 16381. */
    private static int nodePort(String address) {
        String hostPort = address.split("@")[0];
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    /** The node has met others: a cluster exists (a fresh node knows only itself). */
    private static boolean knowsACluster(int port) {
        try {
            Object info = Resp.call(port, "CLUSTER", "INFO");
            return info instanceof String s && !s.contains("cluster_known_nodes:1\r");
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }
}
