package io.github.flashstock.sale;

import io.github.flashstock.devstack.Endpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sql/seata-sweep.sql} on the devstack's TC database: deletes the global sessions a TC ended (rolled back)
 * but could not delete, with no branch left, which no TC will ever delete (the file says how they come about). The
 * drills run it while a sale settles, with a short minimum age, and print what it deleted; an operator runs the same
 * file with {@code bin/seata-sweep}.
 */
final class SeataSweep {

    private SeataSweep() {
    }

    /**
     * Runs the sweep. @return one line per session deleted: its XID and the TC's status code
     *
     * @param root the project's root (the file is {@code sql/seata-sweep.sql} under it)
     */
    static List<String> run(Endpoints endpoints, Path root, Duration minAge) {
        List<String> statements;
        try {
            statements = statements(Files.readString(root.resolve("sql").resolve("seata-sweep.sql")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> swept = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(endpoints.jdbcUrl("seata"), endpoints.dbUser("seata"),
                endpoints.dbPassword());
             Statement s = c.createStatement()) {
            s.execute("SET @min_age_seconds = " + minAge.toSeconds());
            for (String sql : statements) {
                if (s.execute(sql)) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            swept.add(rs.getString(1) + " (status " + rs.getInt(2) + ")");
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the Seata sweep failed: " + e.getMessage(), e);
        }
        return swept;
    }

    /** The file's statements in order: comment lines left out, each statement ending at a line that ends in ';'. */
    static List<String> statements(String file) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : file.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(current.isEmpty() ? "" : "\n").append(line);
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalArgumentException("the last statement does not end in ';': " + current);
        }
        return statements;
    }
}
