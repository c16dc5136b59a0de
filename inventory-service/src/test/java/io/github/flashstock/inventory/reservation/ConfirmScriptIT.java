package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.stock.RedisScripts;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code lua/confirm.lua}: every reply code and its replay. */
class ConfirmScriptIT extends ScriptITSupport {

    @Test
    void confirmsWhatTheTryRecordedAndOnlyOnce() {
        Tried t = Tried.threeOfTen();

        PhaseOutcome first = scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice");
        PhaseOutcome replay = scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice");

        assertThat(first).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(replay).isEqualTo(new PhaseOutcome.AlreadyApplied(3));
        RedisStock stock = scripts.stock(t.sku());
        assertThat(stock.unsold()).isEqualTo(7);
        assertThat(stock.reserved()).isZero();
        assertThat(stock.sold()).isEqualTo(3);
        assertThat(stock.available() + stock.reserved() + stock.sold()).isEqualTo(stock.stocked()).isEqualTo(10);
        assertThat(stock.segmentsView()).singleElement().isEqualTo(new RedisStock.Segment(0, 7, 0));
        assertThat(scripts.reader.heldBy(t.sku(), "alice")).isEqualTo(3);
        assertThat(scripts.redis.getExpire(StockKeys.fence(t.sku(), t.xid(), "order-1"))).isPositive();
    }

    @Test
    void withoutARecordTheCommittedUnitsAreTakenFromAvailableStockOnce() {
        // a Try that never reached Redis (or that Redis lost: its record and its stock effect together)
        String sku = scripts.sku(10, 0, 2);
        String xid = xid();

        PhaseOutcome first = scripts.confirm.run(sku, xid, "order-1", RETENTION, 7, "bob");
        PhaseOutcome replay = scripts.confirm.run(sku, xid, "order-1", RETENTION, 7, "bob");

        assertThat(first).isEqualTo(new PhaseOutcome.TakenUnrecorded(7));
        assertThat(replay).isEqualTo(new PhaseOutcome.AlreadyApplied(7));
        RedisStock stock = scripts.stock(sku);
        assertConserved(stock);
        assertThat(stock.available()).isEqualTo(3);
        assertThat(stock.reserved()).isZero();
        assertThat(stock.sold()).isEqualTo(7);
        assertThat(scripts.reader.heldBy(sku, "bob")).isEqualTo(7);
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("CONFIRMED");
        assertThat(scripts.redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "unrecorded")).isEqualTo("1");
        assertThat(scripts.redis.getExpire(StockKeys.fence(sku, xid, "order-1"))).isPositive();
    }

    @Test
    void withoutARecordAndTooFewUnitsLeftNothingIsTakenAndTheOversellIsRecorded() {
        String sku = scripts.skuWithAvailable(3);
        String xid = xid();

        PhaseOutcome first = scripts.confirm.run(sku, xid, "order-1", RETENTION, 4, "bob");
        PhaseOutcome replay = scripts.confirm.run(sku, xid, "order-1", RETENTION, 4, "bob");

        assertThat(first).isEqualTo(new PhaseOutcome.Oversold(4));
        assertThat(replay).isEqualTo(new PhaseOutcome.AlreadyApplied(0));
        RedisStock stock = scripts.stock(sku);
        assertConserved(stock);
        assertThat(stock.available()).isEqualTo(3);
        assertThat(stock.sold()).isZero();
        assertThat(scripts.redis.opsForHash().entries(StockKeys.oversold(sku)))
                .containsExactly(java.util.Map.entry(StockKeys.fence(sku, xid, "order-1"), "4"));
    }

    @Test
    void withoutARecordOrStockForTheSkuReportsItAndWhenToldRecordsTheSaleWithoutCounters() {
        String sku = "sku-nowhere-" + java.util.UUID.randomUUID();
        String xid = xid();

        // asked first without taking: nothing changes, and the caller asks the MySQL store
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "bob", false))
                .isEqualTo(new PhaseOutcome.NoRecord());
        assertThat(scripts.redis.keys(StockKeys.stock(sku) + "*")).isEmpty();

        // then told: the coordinator committed, so it is a sale; no counters exist to move (the SKU is rebuilt from
        // MySQL, where the caller records it), and the record makes a replay a replay
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "bob"))
                .isEqualTo(new PhaseOutcome.TakenUnrecorded(2));
        assertThat(scripts.redis.hasKey(StockKeys.stock(sku))).isFalse();
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("CONFIRMED");
        assertThat(scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "bob"))
                .isEqualTo(new PhaseOutcome.AlreadyApplied(2));
    }

    @Test
    void refusesToConfirmACancelledReservation() {
        Tried t = Tried.threeOfTen();
        scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION);

        assertThat(scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice"))
                .isEqualTo(new PhaseOutcome.EndedOtherwise(3));
        assertThat(scripts.stock(t.sku()).unsold()).isEqualTo(10);
        assertThat(scripts.stock(t.sku()).sold()).isZero();
    }

    /**
     * Several Confirms in one call, as {@link PhaseCoalescer} sends them: each decided on its own record, in order
     * (the same reservation twice: the second is a replay), one that raises an error (its SKU's hash corrupt) failing
     * alone, and one CONFIRMED stream entry per SKU carrying every Confirm of the call that moved units.
     */
    @Test
    void aCallOfSeveralConfirmsDecidesEachOnItsOwnAndOneFailingFailsAlone() {
        Tried a = Tried.threeOfTen();
        Tried b = Tried.threeOfTen();
        String corrupt = scripts.skuWithAvailable(5);
        String xid = xid();
        scripts.tryScript.run(xid, "order-9", 1, "carol", RedisScripts.lines(corrupt, 2));
        // a record whose figures are not numbers: its Confirm raises an error before it writes anything
        scripts.redis.opsForHash().put(StockKeys.fence(corrupt, xid, "order-9"), "quantity", "x");
        scripts.redis.opsForHash().put(StockKeys.fence(corrupt, xid, "order-9"), "alloc", "0:x");
        String bare = scripts.sku(10, 0, 1);
        Long eventsBefore = scripts.redis.opsForStream().size(StockKeys.stock(a.sku()) + ":events");

        List<SecondPhaseScript.Answer> answers = scripts.confirm.run(List.of(
                ConfirmScript.call(a.sku(), a.xid(), "order-1", 3, "alice", true),
                ConfirmScript.call(corrupt, xid, "order-9", 2, "carol", true),
                ConfirmScript.call(b.sku(), b.xid(), "order-1", 3, "alice", true),
                ConfirmScript.call(a.sku(), a.xid(), "order-1", 3, "alice", true),
                ConfirmScript.call(bare, xid, "order-2", 4, "dave", false),
                ConfirmScript.call(bare, xid, "order-3", 4, "dave", true)), RETENTION);

        assertThat(answers.get(0).get()).isEqualTo(new PhaseOutcome.Applied(3));
        assertThatThrownBy(() -> answers.get(1).get())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("confirm.lua failed");
        assertThat(answers.get(2).get()).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(answers.get(3).get()).isEqualTo(new PhaseOutcome.AlreadyApplied(3));
        assertThat(answers.get(4).get()).isEqualTo(new PhaseOutcome.Unrecorded());
        assertThat(answers.get(5).get()).isEqualTo(new PhaseOutcome.TakenUnrecorded(4));
        for (String sku : List.of(a.sku(), b.sku())) {
            RedisStock stock = scripts.stock(sku);
            assertConserved(stock);
            assertThat(stock.sold()).isEqualTo(3);
            assertThat(stock.reserved()).isZero();
        }
        assertThat(scripts.stock(bare).sold()).isEqualTo(4);
        assertThat(scripts.reader.fenceState(corrupt, xid, "order-9")).contains("TRIED");
        assertThat(scripts.stock(corrupt).reserved()).isEqualTo(2);
        // one new entry on a's stream for its one Confirm that moved units (the replay appends nothing)
        assertThat(scripts.redis.opsForStream().size(StockKeys.stock(a.sku()) + ":events"))
                .isEqualTo(eventsBefore + 1);
    }

    /**
     * A record key of the wrong type (a string where a hash belongs) fails its own Confirm only: the keys every phase
     * touches before its first write are read with {@code redis.pcall}, so the error is met where the phase is decided,
     * under its {@code pcall}, and not in front of the whole call.
     */
    @Test
    void aRecordOfTheWrongTypeFailsItsOwnConfirmOnly() {
        Tried a = Tried.threeOfTen();
        String broken = scripts.skuWithAvailable(5);
        String xid = xid();
        scripts.redis.opsForValue().set(StockKeys.fence(broken, xid, "order-7"), "not a hash");

        List<SecondPhaseScript.Answer> answers = scripts.confirm.run(List.of(
                ConfirmScript.call(broken, xid, "order-7", 2, "erin", true),
                ConfirmScript.call(a.sku(), a.xid(), "order-1", 3, "alice", true)), RETENTION);

        assertThatThrownBy(() -> answers.get(0).get())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("confirm.lua failed");
        assertThat(answers.get(1).get()).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.stock(a.sku()).sold()).isEqualTo(3);
        assertThat(scripts.stock(broken).sold()).isZero();
    }
}
