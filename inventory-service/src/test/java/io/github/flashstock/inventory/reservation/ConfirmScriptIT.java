package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
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
    void withoutARecordOrStockForTheSkuChangesNothing() {
        String sku = "sku-nowhere-" + java.util.UUID.randomUUID();

        assertThat(scripts.confirm.run(sku, xid(), "order-1", RETENTION, 2, "bob")).isEqualTo(new PhaseOutcome.NoRecord());
        assertThat(scripts.redis.keys(StockKeys.stock(sku) + "*")).isEmpty();
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
}
