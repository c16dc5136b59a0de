package io.github.flashstock.inventory.stock;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.reservation.TryOutcome;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code lua/close.lua} and {@code lua/sweep.lua}: every reply code, and what a closed SKU's Try gets. */
class SaleEndScriptIT extends ScriptITSupport {

    private final SaleEndScript saleEnd = new SaleEndScript(scripts.redis);

    @Test
    void aClosedSkuRefusesNewTriesWhileItsOpenReservationsStillEnd() {
        Tried t = Tried.threeOfTen();

        SaleEndScript.Closed closed = saleEnd.close(t.sku());
        SaleEndScript.Closed again = saleEnd.close(t.sku());

        assertThat(closed).isEqualTo(new SaleEndScript.Closed(true, 3, 1));
        assertThat(again).isEqualTo(closed);
        assertThat(scripts.tryScript.run(RedisScripts.xid(), "order-2", 1, "bob", RedisScripts.lines(t.sku(), 1)))
                .isEqualTo(new TryOutcome.SaleClosed(t.sku()));
        assertThat(scripts.tryScript.run(t.xid(), "order-1", 2, "alice", RedisScripts.lines(t.sku(), 3)))
                .as("a replay of a Try that reserved before the close").isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(scripts.confirm.run(t.sku(), t.xid(), "order-1", RETENTION, 3, "alice").code().name())
                .isEqualTo("APPLIED");
        RedisStock s = scripts.stock(t.sku());
        assertThat(s.sold()).isEqualTo(3);
        assertConserved(s);
    }

    @Test
    void theSweepWaitsForTheSaleToBeOverThenRemovesEveryKeyTheStockHashLast() {
        Tried t = Tried.threeOfTen();
        assertThat(saleEnd.sweep(t.sku()).code()).as("not closed yet").isEqualTo(SaleEndScript.Sweep.NOT_CLOSED);
        saleEnd.close(t.sku());
        assertThat(saleEnd.sweep(t.sku())).as("alice's reservation is open")
                .isEqualTo(new SaleEndScript.Swept(SaleEndScript.Sweep.NOT_OVER, 0));
        scripts.cancel.run(t.sku(), t.xid(), "order-1", RETENTION);
        // as the forwarder does once RocketMQ has the entries
        scripts.redis.delete(StockKeys.stock(t.sku()) + ":events");
        List<String> before = saleEnd.keysOf(t.sku());

        SaleEndScript.Swept swept = saleEnd.sweep(t.sku());
        SaleEndScript.Swept replay = saleEnd.sweep(t.sku());

        assertThat(before).contains(StockKeys.stock(t.sku()), StockKeys.fence(t.sku(), t.xid(), "order-1"));
        assertThat(swept).isEqualTo(new SaleEndScript.Swept(SaleEndScript.Sweep.SWEPT, before.size()));
        assertThat(saleEnd.keysOf(t.sku())).isEmpty();
        assertThat(replay).isEqualTo(new SaleEndScript.Swept(SaleEndScript.Sweep.UNKNOWN_SKU, 0));
        assertThat(saleEnd.close(t.sku())).isEqualTo(new SaleEndScript.Closed(false, 0, 0));
    }

    @Test
    void anUnsentEventKeepsTheSkuAndAKeyOfAnotherSkuIsNeverRemoved() {
        String sku = scripts.skuWithAvailable(5);
        String other = scripts.skuWithAvailable(5);
        saleEnd.close(sku);
        scripts.redis.opsForStream().add(StockKeys.stock(sku) + ":events", java.util.Map.of("phase", "TRIED"));

        assertThat(saleEnd.sweep(sku).code()).isEqualTo(SaleEndScript.Sweep.NOT_OVER);
        scripts.redis.delete(StockKeys.stock(sku) + ":events");
        // a key of the same slot that is not the SKU's (the stock key with more after its brace) is refused
        String stranger = StockKeys.stock(sku) + "-not-its-key";
        scripts.redis.opsForValue().set(stranger, "kept");
        assertThatThrownBy(() -> scripts.redis.execute(io.github.flashstock.inventory.redis.Scripts.load("sweep.lua"),
                List.of(StockKeys.stock(sku), stranger), "0"))
                .rootCause().hasMessageContaining("is not a key of");
        assertThat(scripts.redis.opsForValue().get(stranger)).isEqualTo("kept");
        assertThat(scripts.stock(other).available()).isEqualTo(5);
        assertThat(saleEnd.sweep(sku).done()).isTrue();
        assertThat(saleEnd.keysOf(sku)).isEmpty();
        assertThat(saleEnd.keysOf(other)).isNotEmpty();
        assertThat(scripts.redis.opsForValue().get(stranger)).as("SCAN's pattern matches it; the sweep leaves it")
                .isEqualTo("kept");
        scripts.redis.delete(stranger);
        assertThat(saleEnd.keysOf("sku-" + UUID.randomUUID())).isEmpty();
    }
}
