package io.github.flashstock.devstack;

import java.nio.file.Path;

/** Redis configuration files as the devstack writes them. */
final class RedisConf {

    private RedisConf() {
    }

    /**
     * Common part. The process title keeps the config file's path (under the devstack home), so that a PID can
     * be recognised as ours: by default Redis rewrites its command line to just its address.
     */
    private static String base(int port, Path dir) {
        return """
                port %d
                bind 127.0.0.1
                protected-mode yes
                daemonize no
                dir %s
                logfile ""
                save ""
                set-proc-title yes
                proc-title-template "{title} {listen-addr} {server-mode} {config-file}"
                """.formatted(port, dir);
    }

    static String standalone(int port, Path dir) {
        return base(port, dir) + """
                appendonly yes
                # every write on disk before its reply: with everysec, Redis may hold the AOF write back for up to
                # 2 s while an fsync is slow and still answer, so a process kill can lose Tries it acknowledged
                # (seen in the redis-kill drill: a CONFIRMED order whose Try Redis no longer had)
                appendfsync always
                """;
    }

    /**
     * A data node of the Sentinel layout: as {@link #standalone} (AOF, an fsync ahead of every reply, on the replica too,
     * so that {@code WAITAOF} can count it), a replica of {@code primaryPort} when that is positive.
     */
    static String sentinelData(int port, Path dir, int primaryPort) {
        return standalone(port, dir) + """
                repl-diskless-sync-delay 0
                repl-diskless-load on-empty-db
                """ + (primaryPort > 0 ? "replicaof 127.0.0.1 " + primaryPort + "\n" : "");
    }

    /**
     * A Sentinel watching {@code primaryPort} under {@code masterName}; two of the three must agree that it is down.
     * A primary that does not answer for 1.5 s is failed over. The Sentinel rewrites this file as it learns.
     */
    static String sentinel(int port, Path dir, String masterName, int primaryPort) {
        return """
                port %d
                bind 127.0.0.1
                daemonize no
                dir %s
                logfile ""
                set-proc-title yes
                proc-title-template "{title} {listen-addr} {server-mode} {config-file}"
                sentinel monitor %s 127.0.0.1 %d 2
                sentinel down-after-milliseconds %s 1500
                sentinel failover-timeout %s 10000
                sentinel parallel-syncs %s 1
                """.formatted(port, dir, masterName, primaryPort, masterName, masterName, masterName);
    }

    static String clusterNode(int port, Path dir) {
        return base(port, dir) + """
                appendonly no
                cluster-enabled yes
                cluster-config-file nodes-%d.conf
                cluster-node-timeout 5000
                repl-diskless-sync-delay 0
                repl-diskless-load on-empty-db
                """.formatted(port);
    }
}
