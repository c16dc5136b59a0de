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
