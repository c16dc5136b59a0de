package io.github.flashstock.inventory.rebuild;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lua/rebuild.lua} and {@code lua/epoch.lua} on the real Redis: what a rebuild after a lost write does, and
 * what it refuses to touch. (The whole path, drain included, is {@code SkuRebuildsIT}.)
 */
class RebuildScriptIT extends ScriptITSupport {

    private static final String ANOTHER_PROCESS = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void aSkuBuiltOnThisServerIsLeftAloneWithItsOpenReservations() {
        String sku = scripts.sku(10, 0, 2);
        String open = xid();
        scripts.tryScript.run(open, "order-a", 1, "u1", lines(sku, 3));
        RedisStock before = scripts.stock(sku);

        assertThat(scripts.epoch.run(sku)).isEqualTo(EpochScript.Code.CURRENT);
        assertThat(scripts.recover.run(sku, 10, 0, 0, 0, RETENTION, 1, List.of(), Duration.ofSeconds(30)))
                .contains(new RebuildScript.NotStale());

        // its reservation may belong to a transaction still running: untouched
        assertThat(scripts.stock(sku)).isEqualTo(before);
        assertThat(scripts.reader.fenceState(sku, open, "order-a")).contains("TRIED");
    }

    @Test
    void aStaleSkuIsRebuiltFromMySqlAndSellsAgainOverTheSameSegments() {
        String sku = scripts.sku(12, 0, 3);
        String confirmed = xid();
        String cancelled = xid();
        scripts.tryScript.run(confirmed, "order-c", 1, "u1", lines(sku, 4));
        scripts.tryScript.run(cancelled, "order-x", 2, "u2", lines(sku, 2));
        scripts.redis.opsForHash().put(StockKeys.stock(sku), "epoch", ANOTHER_PROCESS);
        assertThat(scripts.epoch.run(sku)).isEqualTo(EpochScript.Code.STALE);
        assertThat(scripts.tryScript.run(xid(), "order-n", 3, "u3", lines(sku, 1)))
                .isEqualTo(new TryOutcome.StaleSku(sku));

        // MySQL: 12 stocked, the confirmed reservation's 4 sold
        assertThat(scripts.recover.run(sku, 12, 4, 0, 0, RETENTION, 1,
                List.of(StockKeys.fence(sku, confirmed, "order-c")), Duration.ofSeconds(30)))
                .contains(new RebuildScript.Rebuilt(8, 4, 1, 1));

        RedisStock s = scripts.stock(sku);
        assertConserved(s);
        assertThat(s.available()).isEqualTo(8);
        assertThat(s.reserved()).isZero();
        assertThat(s.sold()).isEqualTo(4);
        assertThat(s.segments()).isEqualTo(3);
        assertThat(scripts.reader.fenceState(sku, confirmed, "order-c")).contains("CONFIRMED");
        assertThat(scripts.reader.fenceState(sku, cancelled, "order-x")).contains("CANCELLED");
        assertThat(scripts.reader.heldBy(sku, "u2")).isZero();
        assertThat(scripts.epoch.run(sku)).isEqualTo(EpochScript.Code.CURRENT);
        assertThat(scripts.tryScript.run(xid(), "order-n", 3, "u3", lines(sku, 8)))
                .isInstanceOf(TryOutcome.Reserved.class);
        // a replay finds the SKU current and changes nothing
        assertThat(scripts.recover.run(sku, 12, 4, 0, 0, RETENTION, 1, List.of(), Duration.ofSeconds(30)))
                .contains(new RebuildScript.NotStale());
        assertThat(scripts.stock(sku).reserved()).isEqualTo(8);
    }

    @Test
    void aSkuRedisLostAltogetherIsCreatedFromMySql() {
        String sku = "lost-" + java.util.UUID.randomUUID();

        assertThat(scripts.epoch.run(sku)).isEqualTo(EpochScript.Code.UNKNOWN_SKU);
        assertThat(scripts.recover.run(sku, 9, 2, 1, 3, RETENTION, 2, List.of(), Duration.ofSeconds(30)))
                .contains(new RebuildScript.Rebuilt(6, 2, 0, 0));

        RedisStock s = scripts.stock(sku);
        assertConserved(s);
        assertThat(s.segments()).isEqualTo(2);
        assertThat(s.limit()).isEqualTo(3);
        // MySQL's own reservations are not Redis's to sell: Redis's stocked leaves them out
        assertThat(s.stocked()).isEqualTo(8);
    }

    /**
     * A closed SKU: rebuilt closed while Redis still holds some of it (a Try then gets SALE_CLOSED), and not brought
     * back at all once Redis holds neither its stock hash nor an open reservation (swept, or about to be).
     */
    @Test
    void aClosedSkuIsRebuiltClosedAndNeverBroughtBackOnceRedisLetGoOfIt() {
        String sku = scripts.skuWithAvailable(10);
        scripts.redis.opsForHash().put(StockKeys.stock(sku), "epoch", ANOTHER_PROCESS);

        assertThat(scripts.recover.runLocked(sku, 10, 0, 0, 0, RETENTION, 1, List.of(),
                io.github.flashstock.inventory.stock.HandoverMarks.NONE, BuyerCounts.NONE, true))
                .isInstanceOf(RebuildScript.Rebuilt.class);
        assertThat(scripts.redis.opsForHash().get(StockKeys.stock(sku), "closed")).isEqualTo("1");
        assertThat(scripts.tryScript.run(xid(), "order-1", 1, "ada", lines(sku, 1)))
                .isEqualTo(new TryOutcome.SaleClosed(sku));

        String gone = "swept-" + java.util.UUID.randomUUID();
        assertThat(scripts.recover.runLocked(gone, 10, 0, 0, 0, RETENTION, 1, List.of(),
                io.github.flashstock.inventory.stock.HandoverMarks.NONE, BuyerCounts.NONE, true))
                .isEqualTo(new RebuildScript.NotStale());
        assertThat(scripts.redis.keys(StockKeys.stock(gone) + "*")).isEmpty();
    }

    /**
     * A Redis that lost writes lost buyers' counts with them: the rebuild sets each buyer's count from the durable
     * record, and gives the MySQL store's rows their records again, before the SKU sells again; so a buyer never gets
     * more than the limit after it.
     */
    @Test
    void aRebuildGivesEachBuyerTheCountTheDurableRecordHas() {
        String sku = scripts.sku(10, 3, 1);
        String lost = xid();
        String mysqlHeld = xid();
        scripts.tryScript.run(lost, "order-lost", 1, "ada", lines(sku, 2));
        // the loss: ada's count, her record and the MySQL store's record of bob's reservation are gone
        scripts.redis.delete(List.of(StockKeys.buyer(sku, "ada"), StockKeys.fence(sku, lost, "order-lost")));
        scripts.redis.opsForSet().remove(StockKeys.stock(sku) + ":open", StockKeys.fence(sku, lost, "order-lost"));
        scripts.redis.opsForHash().put(StockKeys.stock(sku), "epoch", ANOTHER_PROCESS);
        BuyerCounts durable = new BuyerCounts(List.of(new BuyerCounts.MysqlRow(StockKeys.fence(sku, mysqlHeld,
                "order-m"), 1, "bob", "TRIED")), java.util.Map.of("ada", 2L, "bob", 1L));

        // MySQL: ada's 2 confirmed (sold), bob's 1 held by the MySQL store
        assertThat(scripts.recover.runLocked(sku, 10, 2, 1, 3, RETENTION, 1, List.of(),
                io.github.flashstock.inventory.stock.HandoverMarks.NONE, durable, false))
                .isEqualTo(new RebuildScript.Rebuilt(7, 2, 0, 0));

        assertThat(scripts.reader.heldBy(sku, "ada")).isEqualTo(2);
        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(1);
        assertThat(scripts.redis.<String, String>opsForHash().entries(StockKeys.fence(sku, mysqlHeld, "order-m")))
                .containsEntry("state", "MYSQL").containsEntry("counted", "1");
        assertThat(scripts.tryScript.run(xid(), "order-n", 2, "ada", lines(sku, 2)))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 2, 3, 2));
        // the mirror, meeting bob's row later, counts nothing twice
        assertThat(scripts.mirror.run(sku, mysqlHeld, "order-m", 1, "bob", "TRIED", RETENTION).counted()).isEqualTo(1);
        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(1);
    }
}
