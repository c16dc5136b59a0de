package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.rebuild.ReloadScript;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/** Every key a script derives from a SKU's stock key lands in the stock key's cluster slot. */
class StockKeysTest {

    @ParameterizedTest
    @ValueSource(strings = {"hot-phone-128g", "a", "sku.with.dots", "SKU_9-x", "0"})
    void everyKeyOfASkuSharesItsSlot(String sku) {
        String xid = "10.0.0.7:8091:2612345678901234";
        List<String> keys = List.of(StockKeys.segment(sku, 0), StockKeys.segment(sku, 63),
                StockKeys.fence(sku, xid, "order-1"), StockKeys.fence(sku, "[::1]:8091:1", "x"),
                StockKeys.buyer(sku, "u-1"), StockKeys.open(sku), StockKeys.oversold(sku), StockKeys.restockOperation(sku, "op-1"),
                ReloadScript.lockKey(sku));

        int slot = ClusterSlotHashUtil.calculateSlot(StockKeys.stock(sku));

        assertThat(keys).allSatisfy(key -> {
            assertThat(key).startsWith(StockKeys.stock(sku) + ":");
            assertThat(ClusterSlotHashUtil.calculateSlot(key)).as(key).isEqualTo(slot);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.7:8091:2612345678901234", "[::1]:8091:1"})
    void aFenceKeyReadsBackAsItsTransactionAndReservation(String xid) {
        assertThat(StockKeys.parseFence("sku-1", StockKeys.fence("sku-1", xid, "order-7")))
                .contains(new StockKeys.Fence(xid, "order-7"));
        assertThat(StockKeys.parseFence("sku-2", StockKeys.fence("sku-1", xid, "order-7"))).isEmpty();
        assertThat(StockKeys.parseFence("sku-1", StockKeys.buyer("sku-1", "u"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a{b", "a}b", "{x}"})
    void aSkuIdCannotCarryAHashTagOfItsOwn(String sku) {
        assertThatThrownBy(() -> StockKeys.stock(sku)).isInstanceOf(IllegalArgumentException.class);
    }
}
