package io.github.flashstock.inventory.stock;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.stereotype.Component;

/**
 * Brings stock written by the first release to the vocabulary both stores now share (stocked, available,
 * reserved, sold; docs/design.md, "Stock model"), before anything else in the service touches stock: MySQL's
 * {@code sku_stock} columns {@code total} and {@code locked} become {@code stocked} and {@code reserved}, and each
 * SKU's Redis hash and segments get the new fields ({@code lua/migrate.lua}). Both steps find nothing to do the
 * second time; {@code sql/inventory.sql} is applied first, so tables added since (such as {@code restock_operation})
 * are created in a database that predates them. {@link StockCatalog}
 * depends on this bean, and every feature reaches stock through the catalog or
 * comes after it, so the TCC branch registers with Seata only once stock is migrated.
 *
 * <p>Stop every instance of an older release first: one still running would write the old fields.
 */
@Component
class StockModelMigration implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(StockModelMigration.class);

    static final String TABLE = "sku_stock";

    private final JdbcTemplate jdbc;
    private final MigrateScript redis;

    StockModelMigration(JdbcTemplate jdbc, MigrateScript redis) {
        this.jdbc = jdbc;
        this.redis = redis;
    }

    @Override
    public void afterPropertiesSet() {
        // the schema the project ships (every statement safe to run twice): tables it gained since reach old databases
        new ResourceDatabasePopulator(new ClassPathResource("sql/inventory.sql")).execute(jdbc.getDataSource());
        if (migrateMysql(TABLE)) {
            log.info("stock model: {} columns total, locked renamed to stocked, reserved", TABLE);
        }
        if (addAllotment(TABLE)) {
            log.info("stock model: {} got the MySQL store's allotment columns (allotment_available,"
                    + " allotment_incoming, allotment_sold; all 0: every unit stays Redis's)", TABLE);
        }
        if (renameReserveToAllotment(TABLE)) {
            log.info("stock model: {} columns reserve_available, reserve_incoming, reserve_sold renamed to"
                    + " allotment_available, allotment_incoming, allotment_sold", TABLE);
        }
        if (addLedgerBuyer("stock_ledger")) {
            log.info("stock model: stock_ledger got the columns user_id and redis_mirrored (rows before them name no"
                    + " buyer, so per-user limits in the MySQL store do not count them)");
        }
        if (addRefusals("stock_ledger")) {
            log.info("stock model: stock_ledger takes REFUSED rows (columns refusal, refused_confirm_at): a refused"
                    + " Try is recorded, and a Confirm of it takes nothing");
        }
        if (addSaleEnd(TABLE)) {
            log.info("stock model: {} got the columns closed_at and swept_at (every SKU open)", TABLE);
        }
        if (renameBackendToStore("stock_ledger")) {
            log.info("stock model: stock_ledger column backend renamed to store");
        }
        int migrated = migrateRedis(jdbc.queryForList("SELECT sku_id FROM " + TABLE, String.class));
        if (migrated > 0) {
            log.info("stock model: {} SKU(s) moved to the stocked/available/reserved/sold fields in Redis", migrated);
        }
    }

    /**
     * Renames the first release's columns of {@code table} (constraints {@code ck_<table>_counts} and
     * {@code ck_<table>_available}) in one statement, so that a failure leaves the table as it was; MySQL 8 and
     * MariaDB 10.11 both take it.
     *
     * @return true when the columns were renamed, false when they had their new names already
     */
    boolean migrateMysql(String table) {
        Integer old = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'total'", Integer.class, table);
        if (old == null || old == 0) {
            return false;
        }
        String ck = "ck_" + table;
        jdbc.execute("ALTER TABLE " + table
                + " DROP CONSTRAINT " + ck + "_counts, DROP CONSTRAINT " + ck + "_available,"
                + " RENAME COLUMN total TO stocked, RENAME COLUMN locked TO reserved,"
                + " ADD CONSTRAINT " + ck + "_counts CHECK (stocked >= 0 AND sold >= 0 AND reserved >= 0),"
                + " ADD CONSTRAINT " + ck + "_available CHECK (stocked - sold - reserved >= 0)");
        return true;
    }

    /** What the allotment columns must satisfy: none negative, sold within sold, the rest within what is unsold. */
    private static final String ALLOTMENT_CHECK = "allotment_available >= 0 AND allotment_incoming >= 0"
            + " AND allotment_sold >= 0 AND allotment_sold <= sold"
            + " AND stocked - sold - reserved - allotment_available - allotment_incoming >= 0";

    /**
     * Adds the allotment's columns to a {@code table} made before the MySQL store had one, with their constraint, in
     * one statement.
     *
     * @return true when they were added, false when the table had them (under their name or their earlier one)
     */
    boolean addAllotment(String table) {
        if (hasColumn(table, "allotment_available") || hasColumn(table, "reserve_available")) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table
                + " ADD COLUMN allotment_available BIGINT NOT NULL DEFAULT 0 AFTER reserved,"
                + " ADD COLUMN allotment_incoming BIGINT NOT NULL DEFAULT 0 AFTER allotment_available,"
                + " ADD COLUMN allotment_sold BIGINT NOT NULL DEFAULT 0 AFTER allotment_incoming,"
                + " ADD CONSTRAINT ck_" + table + "_allotment CHECK (" + ALLOTMENT_CHECK + ")");
        return true;
    }

    /**
     * Renames the allotment's columns of a {@code table} that has them under their other names
     * ({@code reserve_available}, {@code reserve_incoming}, {@code reserve_sold}, constraint {@code ck_<table>_reserve})
     * in one statement, so that a failure leaves the table as it was.
     *
     * @return true when they were renamed, false when they had their names already
     */
    boolean renameReserveToAllotment(String table) {
        if (!hasColumn(table, "reserve_available")) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table
                + " DROP CONSTRAINT ck_" + table + "_reserve,"
                + " RENAME COLUMN reserve_available TO allotment_available,"
                + " RENAME COLUMN reserve_incoming TO allotment_incoming,"
                + " RENAME COLUMN reserve_sold TO allotment_sold,"
                + " ADD CONSTRAINT ck_" + table + "_allotment CHECK (" + ALLOTMENT_CHECK + ")");
        return true;
    }

    /**
     * Renames a ledger {@code table}'s column {@code backend} (REDIS or MYSQL: the store that holds the reservation)
     * to {@code store}; its index follows the column.
     *
     * @return true when it was renamed, false when it had its name already
     */
    boolean renameBackendToStore(String table) {
        if (!hasColumn(table, "backend")) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table + " RENAME COLUMN backend TO store");
        return true;
    }

    /**
     * Adds the end of a SKU's sale ({@code closed_at}, {@code swept_at}) to a {@code table} made before it.
     *
     * @return true when they were added, false when the table had them
     */
    boolean addSaleEnd(String table) {
        if (hasColumn(table, "closed_at")) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table + " ADD COLUMN closed_at TIMESTAMP(3) NULL AFTER version,"
                + " ADD COLUMN swept_at TIMESTAMP(3) NULL AFTER closed_at");
        return true;
    }

    private boolean hasColumn(String table, String column) {
        Integer has = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                + " DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?", Integer.class, table, column);
        return has != null && has > 0;
    }

    /**
     * Adds the buyer ({@code user_id}) and the mirror flag ({@code redis_mirrored}) to a ledger {@code table} made
     * before them, with their indexes, in one statement.
     *
     * @return true when they were added, false when the table had them
     */
    boolean addLedgerBuyer(String table) {
        Integer has = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                + " DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'user_id'", Integer.class, table);
        if (has != null && has > 0) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table
                + " ADD COLUMN user_id VARCHAR(64) NULL AFTER backend,"
                + " ADD COLUMN redis_mirrored TINYINT NOT NULL DEFAULT 1 AFTER user_id,"
                + " ADD KEY idx_" + table + "_buyer (sku_id, user_id),"
                + " ADD KEY idx_" + table + "_store (backend, redis_mirrored)");
        return true;
    }

    /**
     * Lets a ledger {@code table} made before refusals were recorded hold them: the columns {@code refusal} and
     * {@code refused_confirm_at}, and the state REFUSED in its state constraint, in one statement.
     *
     * @return true when the table changed, false when it took refusals already
     */
    boolean addRefusals(String table) {
        Integer has = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                + " DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'refusal'", Integer.class, table);
        if (has != null && has > 0) {
            return false;
        }
        jdbc.execute("ALTER TABLE " + table
                + " DROP CONSTRAINT ck_" + table + "_state,"
                + " ADD COLUMN refusal VARCHAR(32) NULL AFTER redis_mirrored,"
                + " ADD COLUMN refused_confirm_at TIMESTAMP(3) NULL AFTER refusal,"
                + " ADD CONSTRAINT ck_" + table + "_state CHECK (state IN ('TRIED', 'CONFIRMED', 'CANCELLED',"
                + " 'REFUSED'))");
        return true;
    }

    /** @return how many of these SKUs moved to the new fields (the others had them already, or are not in Redis) */
    int migrateRedis(List<String> skus) {
        int migrated = 0;
        for (String sku : skus) {
            if (redis.run(sku) instanceof MigrateOutcome.Migrated m) {
                log.info("stock model: SKU {} migrated in Redis ({})", sku, m);
                migrated++;
            }
        }
        return migrated;
    }
}
