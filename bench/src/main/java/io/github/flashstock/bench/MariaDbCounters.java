package io.github.flashstock.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * MariaDB's own counts of what a run made it do, from {@code SHOW GLOBAL STATUS} before and after: {@code Com_commit}
 * (COMMIT statements, one per transaction a service ended: every write of an order's path runs in one) and
 * {@code Innodb_log_writes} (writes of the redo log, each flushed to disk at commit as the devstack runs MariaDB;
 * concurrent commits that MariaDB's own group commit joins share one). Global counters: the whole server, every
 * connection, the services' background work included.
 */
final class MariaDbCounters {

    /** What a run cost MariaDB. */
    record Delta(long commits, long logWrites) {
    }

    private final String url;
    private final String user;
    private final String password;

    MariaDbCounters(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    Map<String, Long> read() {
        Map<String, Long> values = new HashMap<>();
        try (Connection c = DriverManager.getConnection(url, user, password);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_commit',"
                     + " 'Innodb_log_writes')")) {
            while (rs.next()) {
                values.put(rs.getString(1), Long.parseLong(rs.getString(2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read MariaDB's status counters: " + e.getMessage(), e);
        }
        return values;
    }

    Delta since(Map<String, Long> before) {
        Map<String, Long> now = read();
        return new Delta(now.getOrDefault("Com_commit", 0L) - before.getOrDefault("Com_commit", 0L),
                now.getOrDefault("Innodb_log_writes", 0L) - before.getOrDefault("Innodb_log_writes", 0L));
    }
}
