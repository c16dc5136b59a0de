package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * A finished fence record that Redis dropped (as an evicting Redis drops the keys with a TTL first, or one that
 * outlived its retention) is not a Try Redis never had: the coordinator's replayed Confirm of the branch finds the
 * sale in the ledger and takes nothing again. Reproduced from issue #58: one order of 2 units, confirmed, its record
 * deleted, the Confirm replayed: sold must stay 2 (taken again, it would be 4).
 */
class EvictedRecordIT extends StoreSequenceITSupport {

    @Test
    void aConfirmReplayedAfterItsRecordWasDroppedTakesNothingAgain() throws Exception {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(10, null, 1);
        GlobalTransaction tx = GlobalTransactions.beginUnbound("evicted-record-it");
        String xid = tx.getXid();
        ResponseEntity<JsonNode> tried = inventory.reserve(xid, "order-1", "ann",
                List.of(new InventoryClient.Item(sku, 2)));
        assertThat(tried.getStatusCode().value()).isEqualTo(201);
        GlobalTransactions.commit(tx);
        String fence = StockKeys.fence(sku, xid, "order-1");
        await().atMost(Duration.ofSeconds(30)).until(() -> "CONFIRMED".equals(redis.opsForHash().get(fence, "state"))
                && inventory.stock(sku).at("/mysql/sold").asLong() == 2);
        String branch = (String) redis.opsForHash().get(fence, "branch");
        String count = redis.opsForValue().get(StockKeys.buyer(sku, "ann"));

        assertThat(redis.delete(fence)).as("the record, dropped as an eviction would").isTrue();
        assertThat(action.confirm(context(xid, branch, "order-1", "ann", sku + "*2"))).isTrue();

        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/sold").asLong()).as("%s", stock).isEqualTo(2);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(8);
        assertThat(stock.at("/mysql/sold").asLong()).isEqualTo(2);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "ann"))).as("ann's count").isEqualTo(count);
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state, ' ', quantity) FROM stock_ledger WHERE xid = ?",
                String.class, xid)).containsExactly("REDIS CONFIRMED 2");
        assertThat(reconciler.check(sku)).isEmpty();
    }
}
