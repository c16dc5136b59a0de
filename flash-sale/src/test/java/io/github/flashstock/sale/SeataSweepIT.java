package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sql/seata-sweep.sql} on the TC's real database, through {@link SeataSweep} and through {@code bin/seata-sweep}:
 * it deletes exactly the sessions a TC rolled back and could not delete (no branch left, older than the minimum age)
 * with their lock rows, and nothing else: not one with a branch, not a recent one, not one in a failed status.
 */
class SeataSweepIT {

    private static final Path ROOT = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();

    private final Endpoints endpoints = SharedStack.endpoints();
    private final List<String> xids = new ArrayList<>();

    @AfterEach
    void removeWhatIsLeft() throws Exception {
        try (Connection c = connect()) {
            for (String table : List.of("global_table", "branch_table", "lock_table")) {
                for (String xid : xids) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE xid = ?")) {
                        ps.setString(1, xid);
                        ps.executeUpdate();
                    }
                }
            }
        }
    }

    @Test
    void onlyEndedSessionsWithNoBranchLeftAndOldEnoughGo() throws Exception {
        String rolledBack = session(11, 600);
        String timedOut = session(13, 600);
        lock(timedOut);
        String withBranch = session(11, 600);
        branch(withBranch);
        String recent = session(11, 5);
        String failed = session(12, 600);
        String commitFailed = session(10, 600);

        List<String> swept = SeataSweep.run(endpoints, ROOT, Duration.ofSeconds(60));

        assertThat(swept).containsExactlyInAnyOrder(rolledBack + " (status 11)", timedOut + " (status 13)");
        assertThat(sessionsLeft()).containsExactlyInAnyOrder(withBranch, recent, failed, commitFailed);
        assertThat(count("lock_table", timedOut)).isZero();
        assertThat(count("branch_table", withBranch)).isOne();
        // a second run finds nothing more
        assertThat(SeataSweep.run(endpoints, ROOT, Duration.ofSeconds(60))).isEmpty();
    }

    @Test
    void theOperatorsScriptSweepsTheSameAndRefusesABadAge() throws Exception {
        String rolledBack = session(11, 600);
        String recent = session(11, 5);
        Matcher url = Pattern.compile("//([^:/]+):(\\d+)/").matcher(endpoints.jdbcUrl("seata"));
        assertThat(url.find()).isTrue();

        Run run = script("--min-age", "60", "-h", url.group(1), "-P", url.group(2), "-u", endpoints.dbUser("seata"),
                "seata");

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains(rolledBack).doesNotContain(recent);
        assertThat(sessionsLeft()).containsExactly(recent);
        Run bad = script("--min-age", "soon");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.output()).contains("--min-age takes a number of seconds");
    }

    private record Run(int exit, String output) {
    }

    private Run script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/seata-sweep").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("MYSQL_PWD", endpoints.dbPassword());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), output);
    }

    /** A global session row as a TC writes it, in that status, last changed that many seconds ago. */
    private String session(int status, int secondsAgo) throws Exception {
        String xid = "192.0.2.9:8091:" + UUID.randomUUID();
        xids.add(xid);
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO global_table (xid,"
                + " transaction_id, status, application_id, transaction_service_group, transaction_name, timeout,"
                + " begin_time, gmt_create, gmt_modified) VALUES (?, 1, ?, 'seata-sweep-it', 'default_tx_group',"
                + " 'sweep', 60000, 0, NOW() - INTERVAL ? SECOND, NOW() - INTERVAL ? SECOND)")) {
            ps.setString(1, xid);
            ps.setInt(2, status);
            ps.setInt(3, secondsAgo);
            ps.setInt(4, secondsAgo);
            ps.executeUpdate();
        }
        return xid;
    }

    private void branch(String xid) throws Exception {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO branch_table"
                + " (branch_id, xid, transaction_id, resource_id, branch_type, status, gmt_create, gmt_modified)"
                + " VALUES (?, ?, 1, 'inventory-reservation', 'TCC', 1, NOW(6), NOW(6))")) {
            ps.setLong(1, Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000_000L));
            ps.setString(2, xid);
            ps.executeUpdate();
        }
    }

    private void lock(String xid) throws Exception {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO lock_table (row_key, xid,"
                + " transaction_id, branch_id, resource_id, table_name, pk) VALUES (?, ?, 1, 1, 'r', 't', '1')")) {
            ps.setString(1, "sweep-it-" + UUID.randomUUID());
            ps.setString(2, xid);
            ps.executeUpdate();
        }
    }

    /** This test's sessions still in the table. */
    private List<String> sessionsLeft() throws Exception {
        List<String> left = new ArrayList<>();
        try (Connection c = connect()) {
            for (String xid : xids) {
                if (count(c, "global_table", xid) > 0) {
                    left.add(xid);
                }
            }
        }
        return left;
    }

    private long count(String table, String xid) throws Exception {
        try (Connection c = connect()) {
            return count(c, table, xid);
        }
    }

    private static long count(Connection c, String table, String xid) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE xid = ?")) {
            ps.setString(1, xid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection(endpoints.jdbcUrl("seata"), endpoints.dbUser("seata"),
                endpoints.dbPassword());
    }
}
