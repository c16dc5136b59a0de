package io.github.flashstock.inventory.stock;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Stock written by the first release (MySQL columns {@code total}, {@code locked}; Redis fields {@code total},
 * {@code locked} and a {@code sold} that counted open Tries) moves to the shared vocabulary, safely twice, and the
 * reservations open across the move still confirm and cancel.
 */
@DevStackTest({Component.REDIS, Component.MARIADB})
class StockModelMigrationIT {

    private static RedisScripts scripts;
    private static JdbcTemplate jdbc;
    private static StockModelMigration migration;

    @BeforeAll
    static void connect(Endpoints endpoints) {
        scripts = new RedisScripts(endpoints);
        jdbc = new JdbcTemplate(new DriverManagerDataSource(endpoints.jdbcUrl("inventory"),
                endpoints.dbUser("inventory"), endpoints.dbPassword()));
        migration = new StockModelMigration(jdbc, new MigrateScript(scripts.redis));
    }

    @AfterAll
    static void close() {
        scripts.close();
    }

    @Test
    void mysqlColumnsAreRenamedOnceAndKeepTheirChecks() {
        // Given a table as the first release made it (under another name, beside the live one)
        String table = "sku_stock_it_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE TABLE " + table + " (sku_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " total BIGINT NOT NULL DEFAULT 0, sold BIGINT NOT NULL DEFAULT 0, locked BIGINT NOT NULL DEFAULT 0,"
                + " CONSTRAINT ck_" + table + "_counts CHECK (total >= 0 AND sold >= 0 AND locked >= 0),"
                + " CONSTRAINT ck_" + table + "_available CHECK (total - sold - locked >= 0))");
        try {
            jdbc.update("INSERT INTO " + table + " (sku_id, total, sold, locked) VALUES ('a', 100, 30, 5)");

            // When the migration runs twice
            boolean first = migration.migrateMysql(table);
            boolean second = migration.migrateMysql(table);

            // Then the columns were renamed once, the values kept, and the database still refuses overselling
            assertThat(first).isTrue();
            assertThat(second).isFalse();
            assertThat(jdbc.queryForMap("SELECT stocked, sold, reserved FROM " + table + " WHERE sku_id = 'a'"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("stocked", 100L, "sold", 30L, "reserved", 5L));
            assertThatThrownBy(() -> jdbc.update("UPDATE " + table + " SET reserved = 71 WHERE sku_id = 'a'"))
                    .hasMessageContaining("ck_" + table + "_available");
            assertThatThrownBy(() -> jdbc.update("UPDATE " + table + " SET sold = -1 WHERE sku_id = 'a'"))
                    .hasMessageContaining("ck_" + table + "_counts");
        } finally {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    @Test
    void theReserveColumnsBecomeTheAllotmentsOnceAndKeepTheirCheck() {
        // Given a table as the release that named the MySQL store's share "the reserve" made it
        String table = "sku_stock_it_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE TABLE " + table + " (sku_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " stocked BIGINT NOT NULL DEFAULT 0, sold BIGINT NOT NULL DEFAULT 0, reserved BIGINT NOT NULL DEFAULT 0,"
                + " reserve_available BIGINT NOT NULL DEFAULT 0, reserve_incoming BIGINT NOT NULL DEFAULT 0,"
                + " reserve_sold BIGINT NOT NULL DEFAULT 0,"
                + " CONSTRAINT ck_" + table + "_reserve CHECK (reserve_available >= 0 AND reserve_incoming >= 0"
                + " AND reserve_sold >= 0 AND reserve_sold <= sold"
                + " AND stocked - sold - reserved - reserve_available - reserve_incoming >= 0))");
        try {
            jdbc.update("INSERT INTO " + table + " (sku_id, stocked, sold, reserved, reserve_available,"
                    + " reserve_incoming, reserve_sold) VALUES ('a', 100, 30, 5, 10, 2, 4)");

            // When the migration runs twice (adding the columns finds them under their earlier name)
            boolean added = migration.addAllotment(table);
            boolean first = migration.renameReserveToAllotment(table);
            boolean second = migration.renameReserveToAllotment(table);

            // Then they were renamed once, the values kept, and the database still refuses an allotment too large
            assertThat(added).isFalse();
            assertThat(first).isTrue();
            assertThat(second).isFalse();
            assertThat(jdbc.queryForMap("SELECT allotment_available, allotment_incoming, allotment_sold FROM " + table
                    + " WHERE sku_id = 'a'")).containsExactlyInAnyOrderEntriesOf(Map.of("allotment_available", 10L,
                    "allotment_incoming", 2L, "allotment_sold", 4L));
            assertThatThrownBy(() -> jdbc.update("UPDATE " + table + " SET allotment_available = 64 WHERE sku_id = 'a'"))
                    .hasMessageContaining("ck_" + table + "_allotment");
            assertThat(migration.addAllotment(table)).isFalse();
        } finally {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    @Test
    void aTableFromBeforeTheEndOfASaleGetsItsColumnsOnceEverySkuOpen() {
        String table = "sku_stock_it_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE TABLE " + table + " (sku_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " stocked BIGINT NOT NULL DEFAULT 0, version BIGINT NOT NULL DEFAULT 0)");
        try {
            jdbc.update("INSERT INTO " + table + " (sku_id, stocked) VALUES ('a', 100)");

            boolean first = migration.addSaleEnd(table);
            boolean second = migration.addSaleEnd(table);

            assertThat(first).isTrue();
            assertThat(second).isFalse();
            assertThat(jdbc.queryForMap("SELECT closed_at, swept_at FROM " + table + " WHERE sku_id = 'a'"))
                    .containsEntry("closed_at", null).containsEntry("swept_at", null);
        } finally {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    @Test
    void theLedgersBackendColumnBecomesStoreOnce() {
        String table = "stock_ledger_it_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE TABLE " + table + " (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " sku_id VARCHAR(64) NOT NULL, backend VARCHAR(8) NOT NULL, redis_mirrored TINYINT NOT NULL DEFAULT 1,"
                + " KEY idx_" + table + "_store (backend, redis_mirrored))");
        try {
            jdbc.update("INSERT INTO " + table + " (sku_id, backend) VALUES ('s', 'MYSQL')");

            boolean first = migration.renameBackendToStore(table);
            boolean second = migration.renameBackendToStore(table);

            assertThat(first).isTrue();
            assertThat(second).isFalse();
            assertThat(jdbc.queryForObject("SELECT store FROM " + table, String.class)).isEqualTo("MYSQL");
            assertThat(jdbc.queryForList("SELECT COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA ="
                    + " DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX", String.class, table, "idx_" + table + "_store"))
                    .containsExactly("store", "redis_mirrored");
        } finally {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    @Test
    void aLedgerFromBeforeRefusalsTakesThemOnce() {
        // Given a ledger as the release before refusals made it (under another name, beside the live one)
        String table = "stock_ledger_it_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE TABLE " + table + " (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " xid VARCHAR(128) NOT NULL, reservation_key VARCHAR(128) NOT NULL, branch_id BIGINT NULL,"
                + " sku_id VARCHAR(64) NOT NULL, quantity INT NOT NULL, state VARCHAR(16) NOT NULL,"
                + " backend VARCHAR(8) NOT NULL, user_id VARCHAR(64) NULL, redis_mirrored TINYINT NOT NULL DEFAULT 1,"
                + " CONSTRAINT ck_" + table + "_state CHECK (state IN ('TRIED', 'CONFIRMED', 'CANCELLED')))");
        try {
            jdbc.update("INSERT INTO " + table + " (xid, reservation_key, sku_id, quantity, state, backend)"
                    + " VALUES ('x', 'r', 's', 1, 'CONFIRMED', 'REDIS')");
            assertThatThrownBy(() -> jdbc.update("INSERT INTO " + table + " (xid, reservation_key, sku_id, quantity,"
                    + " state, backend) VALUES ('x', 'r2', 's', 1, 'REFUSED', 'REDIS')"))
                    .hasMessageContaining("ck_" + table + "_state");

            // When the migration runs twice
            boolean first = migration.addRefusals(table);
            boolean second = migration.addRefusals(table);

            // Then it changed the table once: REFUSED rows with their refusal go in, other states still do not
            assertThat(first).isTrue();
            assertThat(second).isFalse();
            jdbc.update("INSERT INTO " + table + " (xid, reservation_key, sku_id, quantity, state, backend, refusal)"
                    + " VALUES ('x', 'r2', 's', 1, 'REFUSED', 'REDIS', 'insufficient-stock')");
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class)).isEqualTo(2);
            assertThatThrownBy(() -> jdbc.update("INSERT INTO " + table + " (xid, reservation_key, sku_id, quantity,"
                    + " state, backend) VALUES ('x', 'r3', 's', 1, 'LOST', 'REDIS')"))
                    .hasMessageContaining("ck_" + table + "_state");
        } finally {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    @Test
    void liveSchemaEndsInTheSharedWords() {
        // a devstack whose data directory predates the vocabulary is migrated here, a fresh one has nothing to do
        migration.afterPropertiesSet();

        assertThat(migration.migrateMysql(StockModelMigration.TABLE)).isFalse();
        assertThat(jdbc.queryForList("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                + " AND TABLE_NAME = 'sku_stock'", String.class))
                .contains("stocked", "sold", "reserved", "allotment_available", "allotment_incoming", "allotment_sold")
                .doesNotContain("total", "locked", "reserve_available");
        assertThat(jdbc.queryForList("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                + " AND TABLE_NAME = 'stock_ledger'", String.class)).contains("store").doesNotContain("backend");
    }

    @Test
    void aDatabaseThatPredatesATableGetsItAtStart() {
        // Given the live database as it was before restocks were recorded
        jdbc.execute("DROP TABLE IF EXISTS restock_operation");

        // When the service starts (the migration's start-up step), twice
        migration.afterPropertiesSet();
        migration.afterPropertiesSet();

        // Then the table is there, with its check
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM restock_operation", Long.class)).isZero();
        assertThatThrownBy(() -> jdbc.update(
                "INSERT INTO restock_operation (sku_id, operation_id, units) VALUES ('s', 'o', 0)"))
                .hasMessageContaining("ck_restock_operation_units");
    }

    @Test
    void redisStockIsMigratedOnceAndItsOpenReservationsStillEnd() {
        // Given a SKU of 10 units over 2 segments with 2 units sold and 3 reserved by open Tries...
        String sku = scripts.sku(10, 0, 2);
        String open = xid();
        String confirmed = xid();
        String cancelled = xid();
        assertThat(scripts.tryScript.run(confirmed, "order-c", 1, "u1", lines(sku, 2))).isEqualTo(new TryOutcome.Reserved());
        scripts.confirm.run(sku, confirmed, "order-c", RETENTION, 2, "u1");
        assertThat(scripts.tryScript.run(open, "order-o", 2, "u2", lines(sku, 3))).isEqualTo(new TryOutcome.Reserved());
        assertThat(scripts.tryScript.run(cancelled, "order-x", 3, "u3", lines(sku, 1))).isEqualTo(new TryOutcome.Reserved());
        RedisStock current = scripts.stock(sku);
        // ... written in the first release's fields
        writeAsFirstRelease(current);
        RedisStock unreadable = scripts.stock(sku);
        assertThat(unreadable).isNotEqualTo(current);

        // When the migration runs twice
        int first = migration.migrateRedis(List.of(sku, "sku-nowhere-" + UUID.randomUUID()));
        int second = migration.migrateRedis(List.of(sku));

        // Then it moved once, to exactly what the current scripts would have written
        assertThat(first).isEqualTo(1);
        assertThat(second).isZero();
        assertThat(new MigrateScript(scripts.redis).run(sku)).isEqualTo(new MigrateOutcome.AlreadyCurrent());
        RedisStock migrated = scripts.stock(sku);
        assertThat(migrated).isEqualTo(current);
        assertThat(scripts.redis.opsForHash().keys(StockKeys.stock(sku))).doesNotContain("total", "locked");
        assertThat(scripts.redis.opsForHash().keys(StockKeys.segment(sku, 0))).doesNotContain("total", "locked");

        // and the reservations open across the move end as they should
        assertThat(scripts.confirm.run(sku, open, "order-o", RETENTION, 3, "u2")).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.cancel.run(sku, cancelled, "order-x", RETENTION)).isEqualTo(new PhaseOutcome.Applied(1));
        RedisStock after = scripts.stock(sku);
        assertThat(after.sold()).isEqualTo(5);
        assertThat(after.reserved()).isZero();
        assertThat(after.available()).isEqualTo(5);
        assertThat(after.segmentsView().stream().mapToLong(RedisStock.Segment::available).sum()).isEqualTo(5);
        assertThat(after.available() + after.reserved() + after.sold()).isEqualTo(after.stocked()).isEqualTo(10);
    }

    /**
     * Rewrites a SKU as the first release kept it: SKU {@code total} = units on hand, {@code locked} = reserved,
     * {@code sold} = sold + reserved; per segment {@code total} = on hand, {@code locked} = reserved.
     */
    private static void writeAsFirstRelease(RedisStock s) {
        String key = StockKeys.stock(s.skuId());
        scripts.redis.opsForHash().putAll(key, Map.of("total", Long.toString(s.available() + s.reserved()),
                "locked", Long.toString(s.reserved()), "sold", Long.toString(s.sold() + s.reserved())));
        scripts.redis.opsForHash().delete(key, "available", "reserved");
        for (RedisStock.Segment seg : s.segmentsView()) {
            String segment = StockKeys.segment(s.skuId(), seg.index());
            scripts.redis.opsForHash().putAll(segment, Map.of("total", Long.toString(seg.available() + seg.reserved()),
                    "locked", Long.toString(seg.reserved())));
            scripts.redis.opsForHash().delete(segment, "available", "reserved");
        }
    }
}
