package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import org.junit.jupiter.api.Test;

/** {@code lua/cancel.lua}: every reply code and its replay. */
class CancelScriptIT extends ScriptITSupport {

    @Test
    void releasesWhatTheTryRecordedAndGivesBackThePurchaseCount() {
        Tried t = Tried.threeOfTen();

        PhaseOutcome first = scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION);
        PhaseOutcome replay = scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION);

        assertThat(first).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(replay).isEqualTo(new PhaseOutcome.AlreadyApplied(3));
        RedisStock stock = scripts.stock(t.sku());
        assertThat(stock.unsold()).isEqualTo(10);
        assertThat(stock.reserved()).isZero();
        assertThat(stock.sold()).isZero();
        assertThat(stock.segmentsView()).singleElement().isEqualTo(new RedisStock.Segment(0, 10, 0));
        assertThat(scripts.reader.heldBy(t.sku(), "alice")).isZero();
    }

    @Test
    void withoutARecordWritesATombstoneThatRefusesALateTry() {
        String sku = scripts.skuWithAvailable(10);
        String xid = xid();

        assertThat(scripts.cancel.run(sku, xid, "order-1", RETENTION)).isEqualTo(new PhaseOutcome.NoRecord());
        assertThat(scripts.cancel.run(sku, xid, "order-1", RETENTION)).isEqualTo(new PhaseOutcome.AlreadyApplied(0));

        assertThat(scripts.tryScript.run(xid, "order-1", 1, "alice", lines(sku, 1)))
                .isEqualTo(new TryOutcome.ReservationCancelled(sku));
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("CANCELLED");
        assertThat(scripts.redis.getExpire(StockKeys.fence(sku, xid, "order-1"))).isPositive();
        assertThat(scripts.stock(sku).reserved()).isZero();
    }

    @Test
    void refusesToCancelAConfirmedReservation() {
        Tried t = Tried.threeOfTen();
        scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice");

        assertThat(scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION))
                .isEqualTo(new PhaseOutcome.EndedOtherwise(3));
        assertThat(scripts.stock(t.sku()).sold()).isEqualTo(3);
        assertThat(scripts.stock(t.sku()).unsold()).isEqualTo(7);
    }

    @Test
    void aTriedRecordNeverExpires() {
        Tried t = Tried.threeOfTen();

        assertThat(scripts.redis.getExpire(StockKeys.fence(t.sku(), t.xid(), "order-1"))).isEqualTo(-1);
    }

    @Test
    void aRefusalOfOneAttemptLeavesWhatAnotherAttemptOfTheReservationReserved() {
        // branch 1 reserved 3 units; branch 2, the caller's retry of the same reservation in the same transaction, had
        // been refused for lack of stock before that and records its refusal only now
        Tried t = Tried.threeOfTen();
        CancelScript.RecordedRefusal noStock = new CancelScript.RecordedRefusal(TryOutcome.Code.INSUFFICIENT_STOCK,
                t.sku(), 0, 0);

        assertThat(scripts.cancel.refuse(t.sku(), t.xid(), "order-1", RETENTION, noStock, 2))
                .isEqualTo(new PhaseOutcome.EndedOtherwise(3));
        assertThat(scripts.reader.fenceState(t.sku(), t.xid(), "order-1")).contains("TRIED");
        assertThat(scripts.stock(t.sku()).reserved()).isEqualTo(3);
        // the transaction commits: its Confirm sells the units branch 1 reserved
        assertThat(scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice"))
                .isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.stock(t.sku()).sold()).isEqualTo(3);

        // the refusal of the branch that reserved (an earlier slot group of the refused Try) gives the units back
        Tried u = Tried.threeOfTen();
        assertThat(scripts.cancel.refuse(u.sku(), u.xid(), "order-1", RETENTION,
                new CancelScript.RecordedRefusal(TryOutcome.Code.INSUFFICIENT_STOCK, u.sku(), 0, 0), 1))
                .isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.reader.fenceState(u.sku(), u.xid(), "order-1")).contains("REFUSED");
        assertThat(scripts.stock(u.sku()).reserved()).isZero();
        assertThat(scripts.stock(u.sku()).unsold()).isEqualTo(10);
    }
}
