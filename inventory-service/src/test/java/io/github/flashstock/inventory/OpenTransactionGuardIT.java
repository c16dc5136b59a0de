package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.github.flashstock.support.db.OpenTransactionGuard;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * No connection goes back to the pool inside a server transaction ({@link OpenTransactionGuard}). A transaction begun
 * by {@code START TRANSACTION} on a connection in autocommit is invisible to HikariCP; returned open, it would be
 * inherited by the connection's next borrower, who would see its rows as if committed and commit them with its own.
 * The first test shows that hazard on a bare pool; the others show the guard ending it, alone and under many
 * threads, and that the service's own data source is guarded.
 */
class OpenTransactionGuardIT extends InventoryITSupport {

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    private final List<HikariDataSource> pools = new ArrayList<>();

    @BeforeEach
    void probeTable() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS open_transaction_probe (id VARCHAR(64) NOT NULL PRIMARY KEY)");
    }

    @AfterEach
    void closePools() {
        pools.forEach(HikariDataSource::close);
        jdbc.execute("DROP TABLE IF EXISTS open_transaction_probe");
    }

    @Test
    void aBarePoolHandsAnOpenTransactionToTheNextBorrower() throws SQLException {
        HikariDataSource pool = pool(1);
        String id = UUID.randomUUID().toString();
        leaveOpen(pool, id);
        try (Connection next = pool.getConnection()) {
            // the next borrower, in autocommit as far as it knows, runs inside the first one's transaction
            assertThat(next.getAutoCommit()).isTrue();
            assertThat(inTransaction(next)).isTrue();
            assertThat(exists(next, id)).isTrue();
            try (Statement s = next.createStatement()) {
                s.execute("ROLLBACK");
            }
        }
    }

    @Test
    void theGuardRollsBackWhatWasReturnedOpenAndCountsIt() throws SQLException {
        OpenTransactionGuard guard = new OpenTransactionGuard(pool(1), "probe", new SimpleMeterRegistry());
        String id = UUID.randomUUID().toString();
        leaveOpen(guard, id);
        assertThat(guard.returnedOpen()).isEqualTo(1);
        try (Connection next = guard.getConnection()) {
            assertThat(inTransaction(next)).isFalse();
            assertThat(exists(next, id)).isFalse();
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM open_transaction_probe WHERE id = ?", Long.class, id))
                .isZero();
        assertThat(guard.returnedOpen()).isEqualTo(1); // a clean return is not counted
    }

    /**
     * 16 threads on a pool of 4, each writing 25 rows: every third one is left open when its connection goes back.
     * Exactly the rows written in autocommit remain; not one of those left open, whoever borrowed the connection next.
     */
    @Test
    void underManyThreadsOnlyWhatWasCommittedRemains() throws Exception {
        OpenTransactionGuard guard = new OpenTransactionGuard(pool(4), "probe", new SimpleMeterRegistry());
        String run = UUID.randomUUID().toString().substring(0, 8);
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger leftOpen = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        String id = run + "-" + thread + "-" + i;
                        if ((thread + i) % 3 == 0) {
                            leaveOpen(guard, "open-" + id);
                            leftOpen.incrementAndGet();
                        } else {
                            try (Connection c = guard.getConnection();
                                 PreparedStatement ps = c.prepareStatement(
                                         "INSERT INTO open_transaction_probe (id) VALUES (?)")) {
                                ps.setString(1, "kept-" + id);
                                ps.executeUpdate();
                            }
                            committed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(guard.returnedOpen()).isEqualTo(leftOpen.get());
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM open_transaction_probe WHERE id LIKE ?", Long.class,
                "kept-" + run + "-%")).isEqualTo(committed.get());
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM open_transaction_probe WHERE id LIKE ?", Long.class,
                "open-" + run + "-%")).isZero();
    }

    @Test
    void theServiceDataSourceIsGuarded() throws SQLException {
        assertThat(dataSource).isInstanceOf(OpenTransactionGuard.class);
        OpenTransactionGuard guard = (OpenTransactionGuard) dataSource;
        long before = guard.returnedOpen();
        String id = UUID.randomUUID().toString();
        leaveOpen(guard, id);
        assertThat(guard.returnedOpen()).isEqualTo(before + 1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM open_transaction_probe WHERE id = ?", Long.class, id))
                .isZero();
    }

    /** Begins a transaction by SQL on a connection in autocommit, writes a row, and returns the connection. */
    private static void leaveOpen(DataSource ds, String id) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "START TRANSACTION; INSERT INTO open_transaction_probe (id) VALUES (?)")) {
            ps.setString(1, id);
            ps.execute();
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // read to the end
            }
        }
    }

    private static boolean inTransaction(Connection c) throws SQLException {
        return c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getSession().getServerSession()
                .inTransactionOnServer();
    }

    private static boolean exists(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM open_transaction_probe WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** A pool of its own, with the service's connection settings. */
    private HikariDataSource pool(int size) throws SQLException {
        HikariDataSource service = dataSource.unwrap(HikariDataSource.class);
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(service.getJdbcUrl());
        pool.setUsername(service.getUsername());
        pool.setPassword(service.getPassword());
        pool.setDataSourceProperties(service.getDataSourceProperties());
        pool.setTransactionIsolation(service.getTransactionIsolation());
        pool.setMaximumPoolSize(size);
        pool.setMinimumIdle(size);
        pools.add(pool);
        return pool;
    }
}
