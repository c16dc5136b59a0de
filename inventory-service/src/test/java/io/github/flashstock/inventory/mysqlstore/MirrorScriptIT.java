package io.github.flashstock.inventory.mysqlstore;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code lua/mirror.lua}: every reply code and its replay, and what the other scripts make of the record it writes
 * (a reservation the MySQL store holds).
 */
class MirrorScriptIT extends ScriptITSupport {

    @Test
    void countsTheMySqlStoresUnitsForTheBuyerOnceAndTheFenceSendsEveryPhaseThere() {
        String sku = scripts.sku(10, 2, 1);
        String xid = xid();

        MirrorScript.Outcome first = scripts.mirror.run(sku, xid, "order-1", 1, "alice", "TRIED", RETENTION);
        MirrorScript.Outcome replay = scripts.mirror.run(sku, xid, "order-1", 1, "alice", "TRIED", RETENTION);

        assertThat(first).isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 1));
        assertThat(replay).isEqualTo(first);
        assertThat(scripts.reader.heldBy(sku, "alice")).isEqualTo(1);
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("MYSQL");
        assertThat(scripts.redis.getExpire(StockKeys.fence(sku, xid, "order-1"))).isEqualTo(-1);
        // Redis's stock is not touched: the units are the MySQL store's
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        // the buyer's limit (2) counts them in Redis now
        assertThat(scripts.tryScript.run(xid(), "order-2", 1, "alice", lines(sku, 2)))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 2, 2, 1));
        // a retried Try of the same reservation is a replay; both phases belong to the MySQL store
        assertThat(scripts.tryScript.run(xid, "order-1", 1, "alice", lines(sku, 1)))
                .isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 1, "alice", false))
                .isEqualTo(new PhaseOutcome.HeldInMysql(1));
        assertThat(scripts.cancel.run(sku, xid, "order-1", RETENTION)).isEqualTo(new PhaseOutcome.HeldInMysql(1));
        assertConserved(scripts.stock(sku));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
    }

    @Test
    void aConfirmedReservationKeepsItsCountAndACancelledOneGivesItBackAndRefusesALateTry() {
        String sku = scripts.sku(10, 5, 1);
        String paid = xid();
        String abandoned = xid();
        scripts.mirror.run(sku, paid, "order-p", 2, "bob", "TRIED", RETENTION);
        scripts.mirror.run(sku, abandoned, "order-a", 3, "bob", "TRIED", RETENTION);
        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(5);

        assertThat(scripts.mirror.run(sku, paid, "order-p", 2, "bob", "CONFIRMED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 2));
        assertThat(scripts.mirror.run(sku, abandoned, "order-a", 3, "bob", "CANCELLED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));
        assertThat(scripts.mirror.run(sku, abandoned, "order-a", 3, "bob", "CANCELLED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));

        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(2);
        // a round that read the rows before they ended comes too late: nothing moves back
        assertThat(scripts.mirror.run(sku, abandoned, "order-a", 3, "bob", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));
        assertThat(scripts.mirror.run(sku, paid, "order-p", 2, "bob", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 2));
        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(2);
        assertThat(scripts.redis.getExpire(StockKeys.fence(sku, paid, "order-p"))).isPositive();
        assertThat(scripts.reader.fenceState(sku, abandoned, "order-a")).contains("CANCELLED");
        assertThat(scripts.tryScript.run(abandoned, "order-a", 1, "bob", lines(sku, 3)))
                .isEqualTo(new TryOutcome.ReservationCancelled(sku));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
    }

    @Test
    void aReservationRedisTookTooIsReleasedAndTheMySqlStoresStands() {
        String sku = scripts.sku(10, 0, 2);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "carol", lines(sku, 4));
        assertThat(scripts.stock(sku).available()).isEqualTo(6);

        MirrorScript.Outcome outcome = scripts.mirror.run(sku, xid, "order-1", 4, "carol", "TRIED", RETENTION);

        assertThat(outcome).isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.DUPLICATE_RELEASED, 4));
        RedisStock stock = scripts.stock(sku);
        assertConserved(stock);
        assertThat(stock.available()).isEqualTo(10);
        assertThat(stock.reserved()).isZero();
        assertThat(scripts.reader.heldBy(sku, "carol")).isEqualTo(4);
        assertThat(scripts.reader.openReservations(sku)).isEmpty();
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("MYSQL");
        // its CANCELLED event is in the SKU's stream beside the TRIED one
        assertThat(scripts.redis.opsForStream().size(StockKeys.stock(sku) + ":events")).isEqualTo(2);
        // a replay finds the record mirrored
        assertThat(scripts.mirror.run(sku, xid, "order-1", 4, "carol", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 4));
        assertThat(scripts.reader.heldBy(sku, "carol")).isEqualTo(4);
    }

    /**
     * A refusal the MySQL store recorded (Redis out of reach) while a Redis call of the same Try landed late: Redis's
     * units go back, and its REFUSED record answers a replay of the Try with the refusal, a Confirm with nothing
     * taken, a Cancel as done; a replay of the mirror changes nothing.
     */
    @Test
    void aRefusalOfTheMySqlStoreReleasesALateRedisTryAndRefusesItsReplays() {
        String sku = scripts.sku(10, 3, 2);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "erin", lines(sku, 2));
        assertThat(scripts.stock(sku).available()).isEqualTo(8);
        var refusal = new io.github.flashstock.inventory.reservation.CancelScript.RecordedRefusal(
                TryOutcome.Code.PURCHASE_LIMIT_EXCEEDED, sku, 3, 2);

        MirrorScript.Outcome outcome = scripts.mirror.runRefused(sku, xid, "order-1", 2, "erin", refusal, RETENTION);

        assertThat(outcome).isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.DUPLICATE_RELEASED, 0));
        RedisStock stock = scripts.stock(sku);
        assertConserved(stock);
        assertThat(stock.available()).isEqualTo(10);
        assertThat(stock.reserved()).isZero();
        assertThat(scripts.reader.heldBy(sku, "erin")).isZero();
        assertThat(scripts.reader.openReservations(sku)).isEmpty();
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("REFUSED");
        assertThat(scripts.redis.getExpire(StockKeys.fence(sku, xid, "order-1"))).isPositive();
        assertThat(scripts.tryScript.run(xid, "order-1", 1, "erin", lines(sku, 2)))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 2, 3, 2));
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "erin"))
                .isEqualTo(new PhaseOutcome.Refused());
        assertThat(scripts.cancel.run(sku, xid, "order-1", RETENTION).code())
                .isEqualTo(PhaseOutcome.Code.ALREADY_APPLIED);
        assertThat(scripts.mirror.runRefused(sku, xid, "order-1", 2, "erin", refusal, RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        assertThat(scripts.reader.heldBy(sku, "erin")).isZero();

        // with no Redis record, the refusal's record is written and a late Try landing after it is refused
        String other = xid();
        assertThat(scripts.mirror.runRefused(sku, other, "order-2", 1, "erin", new io.github.flashstock.inventory
                .reservation.CancelScript.RecordedRefusal(TryOutcome.Code.INSUFFICIENT_STOCK, sku, 0, 0), RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));
        assertThat(scripts.tryScript.run(other, "order-2", 1, "erin", lines(sku, 1)))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 1, 0));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        // a Redis sale of its own under the same ids has ended there: left as it is
        String sold = xid();
        scripts.tryScript.run(sold, "order-3", 1, "erin", lines(sku, 1));
        scripts.confirm.run(sku, sold, "order-3", RETENTION, 1, "erin");
        assertThat(scripts.mirror.runRefused(sku, sold, "order-3", 1, "erin", refusal, RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.ENDED_IN_REDIS, 0));
        assertThat(scripts.stock(sku).sold()).isEqualTo(1);
    }

    @Test
    void leavesARedisReservationThatEndedAloneAndAnUnknownSku() {
        String sku = scripts.skuWithAvailable(10);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "dave", lines(sku, 1));
        scripts.confirm.run(sku, xid, "order-1", RETENTION, 1, "dave");

        assertThat(scripts.mirror.run(sku, xid, "order-1", 1, "dave", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.ENDED_IN_REDIS, 0));
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("CONFIRMED");
        assertThat(scripts.stock(sku).sold()).isEqualTo(1);

        String unknown = "sku-" + UUID.randomUUID();
        assertThat(scripts.mirror.run(unknown, xid, "order-1", 1, "dave", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.UNKNOWN_SKU, 0));
        assertThat(scripts.redis.hasKey(StockKeys.fence(unknown, xid, "order-1"))).isFalse();
    }

    /**
     * Both stores confirmed one reservation (the MySQL store while Redis was out of reach; Redis, on a retried Confirm,
     * its own record of a late Try): the MySQL store's sale stands and Redis's goes back, once, to the segments it was
     * taken from, with a RETURNED event; the buyer's count holds the reservation's units once.
     */
    @Test
    void aSaleBothStoresMadeIsReturnedInRedisOnce() {
        String sku = scripts.sku(10, 3, 2);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "carol", lines(sku, 3));
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 3, "carol"))
                .isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.stock(sku).sold()).isEqualTo(3);

        MirrorScript.Outcome outcome = scripts.mirror.run(sku, xid, "order-1", 3, "carol", "CONFIRMED", RETENTION);

        assertThat(outcome).isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.SALE_RETURNED, 3));
        RedisStock stock = scripts.stock(sku);
        assertConserved(stock);
        assertThat(stock.available()).isEqualTo(10);
        assertThat(stock.sold()).isZero();
        assertThat(scripts.reader.heldBy(sku, "carol")).isEqualTo(3);
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("MYSQL");
        // TRIED, CONFIRMED, RETURNED
        assertThat(scripts.redis.opsForStream().size(StockKeys.stock(sku) + ":events")).isEqualTo(3);
        // a replay, and the phases after, change nothing more
        assertThat(scripts.mirror.run(sku, xid, "order-1", 3, "carol", "CONFIRMED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 3));
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 3, "carol"))
                .isEqualTo(new PhaseOutcome.HeldInMysql(3));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        assertThat(scripts.reader.heldBy(sku, "carol")).isEqualTo(3);

        // a Confirm that took its units without a record (TAKEN_UNRECORDED) is returned the same way
        String other = xid();
        assertThat(scripts.confirm.run(sku, other, "order-2", RETENTION, 2, "dan").code())
                .isEqualTo(PhaseOutcome.Code.TAKEN_UNRECORDED);
        assertThat(scripts.mirror.run(sku, other, "order-2", 2, "dan", "CONFIRMED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.SALE_RETURNED, 2));
        assertConserved(scripts.stock(sku));
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        assertThat(scripts.reader.heldBy(sku, "dan")).isEqualTo(2);
    }

    @Test
    void aConfirmAskedNotToRecoverReportsAMissingRecordAndChangesNothing() {
        String sku = scripts.skuWithAvailable(10);

        assertThat(scripts.confirm.run(sku, xid(), "order-1", RETENTION, 2, "erin", false))
                .isEqualTo(new PhaseOutcome.Unrecorded());
        assertThat(scripts.stock(sku).available()).isEqualTo(10);
        assertThat(scripts.stock(sku).sold()).isZero();
    }
}
