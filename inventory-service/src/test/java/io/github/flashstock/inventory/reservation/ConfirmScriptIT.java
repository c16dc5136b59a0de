package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.redis.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.redis.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.redis.RedisStock;
import io.github.flashstock.inventory.stock.redis.ScriptITSupport;
import io.github.flashstock.inventory.stock.redis.StockKeys;
import org.junit.jupiter.api.Test;

/** {@code lua/confirm.lua}: every reply code and its replay. */
class ConfirmScriptIT extends ScriptITSupport {

    @Test
    void confirmsWhatTheTryRecordedAndOnlyOnce() {
        Tried t = Tried.threeOfTen();

        PhaseOutcome first = scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION);
        PhaseOutcome replay = scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION);

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
    void withoutARecordChangesNothing() {
        String sku = scripts.skuWithAvailable(10);

        assertThat(scripts.confirm.run(sku, xid(), "order-1", RETENTION)).isEqualTo(new PhaseOutcome.NoRecord());
        assertThat(scripts.stock(sku).unsold()).isEqualTo(10);
    }

    @Test
    void refusesToConfirmACancelledReservation() {
        Tried t = Tried.threeOfTen();
        scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION);

        assertThat(scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION))
                .isEqualTo(new PhaseOutcome.EndedOtherwise(3));
        assertThat(scripts.stock(t.sku()).unsold()).isEqualTo(10);
        assertThat(scripts.stock(t.sku()).sold()).isZero();
    }
}
