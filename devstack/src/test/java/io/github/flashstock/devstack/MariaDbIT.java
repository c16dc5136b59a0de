package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.junit.DevStackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@DevStackTest(Component.MARIADB)
class MariaDbIT {

    private static Connection inventory(Endpoints e) throws SQLException {
        return DriverManager.getConnection(e.jdbcUrl("inventory"), e.dbUser("inventory"), e.dbPassword());
    }

    @Test
    void writesAndReadsTheInventorySchema(Endpoints endpoints) throws SQLException {
        String sku = "it-" + UUID.randomUUID();
        try (Connection c = inventory(endpoints)) {
            // Given a SKU with 10 units
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO sku_stock (sku_id, stocked, per_user_limit) VALUES (?, 10, 2)")) {
                ps.setString(1, sku);
                ps.executeUpdate();
            }
            // When a conditional lock takes 4 and a ledger row records it
            try (PreparedStatement ps = c.prepareStatement("UPDATE sku_stock SET reserved = reserved + 4, "
                    + "version = version + 1 WHERE sku_id = ? AND stocked - sold - reserved >= 4")) {
                ps.setString(1, sku);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO stock_ledger (xid, reservation_key, "
                    + "branch_id, sku_id, quantity, state, store) VALUES ('xid-1', 'order-1', 7, ?, 4, 'TRIED', 'MYSQL')")) {
                ps.setString(1, sku);
                ps.executeUpdate();
            }
            // Then both read back
            try (PreparedStatement ps = c.prepareStatement("SELECT s.stocked, s.reserved, s.sold, s.version, l.state "
                    + "FROM sku_stock s JOIN stock_ledger l ON l.sku_id = s.sku_id WHERE s.sku_id = ?")) {
                ps.setString(1, sku);
                ResultSet rs = ps.executeQuery();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong("stocked")).isEqualTo(10);
                assertThat(rs.getLong("reserved")).isEqualTo(4);
                assertThat(rs.getLong("sold")).isZero();
                assertThat(rs.getLong("version")).isEqualTo(1);
                assertThat(rs.getString("state")).isEqualTo("TRIED");
            }
        }
    }

    @Test
    void theDatabaseItselfRefusesToOversell(Endpoints endpoints) throws SQLException {
        String sku = "it-" + UUID.randomUUID();
        try (Connection c = inventory(endpoints); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO sku_stock (sku_id, stocked) VALUES ('" + sku + "', 3)");
            assertThatThrownBy(() -> s.executeUpdate("UPDATE sku_stock SET reserved = 4 WHERE sku_id = '" + sku + "'"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("ck_sku_stock_available");
        }
    }

    @Test
    void aLedgerRowIsUniquePerTransactionReservationAndSku(Endpoints endpoints) throws SQLException {
        String sku = "it-" + UUID.randomUUID();
        String insert = "INSERT INTO stock_ledger (xid, reservation_key, sku_id, quantity, state, store) "
                + "VALUES ('xid-u', 'order-u', '" + sku + "', 1, 'TRIED', 'REDIS')";
        try (Connection c = inventory(endpoints); Statement s = c.createStatement()) {
            s.executeUpdate(insert);
            assertThatThrownBy(() -> s.executeUpdate(insert))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("uk_stock_ledger_branch");
        }
    }

    @Test
    void everySchemaIsSafeToRunTwice(Endpoints endpoints) throws Exception {
        Path sqlDir = endpoints.config().root().resolve("sql");
        for (var db : MariaDbServer.SCHEMAS.entrySet()) {
            String script = Files.readString(sqlDir.resolve(db.getValue()));
            try (Connection c = DriverManager.getConnection(endpoints.jdbcUrl(db.getKey()),
                    endpoints.dbUser(db.getKey()), endpoints.dbPassword()); Statement s = c.createStatement()) {
                // The devstack applied it at start; a second and third run change nothing and fail nothing.
                for (int run = 0; run < 2; run++) {
                    for (String statement : script.split(";\\s*\\n")) {
                        String sql = statement.lines().filter(l -> !l.trim().startsWith("--"))
                                .reduce("", (a, b) -> a + "\n" + b).trim();
                        if (!sql.isEmpty()) {
                            s.execute(sql);
                        }
                    }
                }
            }
        }
        try (Connection c = DriverManager.getConnection(endpoints.jdbcUrl("seata"), "seata", endpoints.dbPassword());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT lock_key FROM distributed_lock")) {
            java.util.List<String> keys = new java.util.ArrayList<>();
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
            // the schema's four rows, once each; a TC that ran in db mode may have added its own (UndologDelete)
            assertThat(keys).containsOnlyOnce("AsyncCommitting", "RetryCommitting", "RetryRollbacking",
                    "TxTimeoutCheck");
        }
    }

    @Test
    void eachServiceUserSeesOnlyItsOwnDatabase(Endpoints endpoints) throws SQLException {
        try (Connection c = DriverManager.getConnection(endpoints.jdbcUrl("orders"), "orders", endpoints.dbPassword());
             Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT * FROM inventory.sku_stock"))
                    .isInstanceOf(SQLException.class);
        }
    }
}
