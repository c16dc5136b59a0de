package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.reservation.TryScript;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;
import java.util.UUID;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A Try the MySQL store refused while a Redis call of the same Try landed late, step by step on the real servers.
 * The Try's first Redis call times out after it was sent, so the retry goes to the MySQL store (the breaker is open),
 * which refuses it (the buyer's limit) and records the refusal in its ledger; the first call then lands in Redis,
 * which knows nothing of the refusal and reserves; the transaction's Cancel runs while Redis is still out of reach,
 * and the MySQL store answers it from its refusal. No phase is left to give Redis's units back, so the mirror does:
 * the refusal is mirrored to Redis as Redis's own REFUSED record, which releases the late reservation and refuses
 * any later landing, and both stores agree.
 */
class RefusedByTheMySqlStoreIT extends StoreSequenceITSupport {

    @Autowired
    TryScript tryScript;

    @Test
    void aLateRedisTryOfARefusedReservationIsReleasedByTheMirror() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(20, 2, 2);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 5, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        String earlier = "127.0.0.1:8091:" + UUID.randomUUID();
        String xid = "127.0.0.1:8091:" + UUID.randomUUID();
        StockLine line = new StockLine(sku, 1);
        // holding the mirror's monitor keeps it from running between the steps, as Redis being out of reach did
        assertThat(AopUtils.isAopProxy(mirror)).isFalse();
        synchronized (mirror) {
            // the buyer holds the limit (2) in the MySQL store already
            assertThat(store.reserve(new TryRequest(earlier, "order-0", 6, "gus", List.of(new StockLine(sku, 2))),
                    false)).isEqualTo(new TryOutcome.Reserved());
            // the retried Try goes to the MySQL store, which refuses it and records the refusal (as StoreRouter does)
            assertThat(store.reserve(new TryRequest(xid, "order-1", 7, "gus", List.of(line)), false))
                    .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 1, 2, 2));
            store.refuse(xid, "order-1", 7, "gus", line, MysqlReservations.PURCHASE_LIMIT_EXCEEDED);
            // the first attempt's Redis call lands late: Redis knows neither the refusal nor the buyer's units
            assertThat(tryScript.run(xid, "order-1", 7, "gus", List.of(line))).isEqualTo(new TryOutcome.Reserved());
            // the rollback's Cancel while Redis is out of reach: the MySQL store answers from its refusal
            assertThat(store.cancel(xid, "order-1", 7, "gus", line, false))
                    .contains(new PhaseOutcome.AlreadyApplied(0));
            assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).as("the late Try's unit").isEqualTo(1);
        }

        // the mirror's next round (its own worker, waiting on the monitor, may take it first)
        mirror.round();

        JsonNode s = inventory.stock(sku);
        assertThat(s.at("/redis/reserved").asLong()).isZero();
        assertThat(s.at("/redis/available").asLong()).isEqualTo(15);
        assertThat(s.at("/redis/sold").asLong()).isZero();
        assertThat(s.at("/mysql/sold").asLong()).isZero();
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "gus"))).as("order-0 only").isEqualTo("2");
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "state")).isEqualTo("REFUSED");
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state, ' ', redis_mirrored) FROM stock_ledger"
                + " WHERE xid = ?", String.class, xid)).containsExactly("MYSQL REFUSED 1");
        // a replay of the Try, now reaching Redis, gets the refusal again and takes nothing
        assertThat(tryScript.run(xid, "order-1", 7, "gus", List.of(line)))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 1, 2, 2));
        // Seata's retry of the Cancel, through the participant, and a further round change nothing
        assertThat(action.cancel(context(xid, sku))).isTrue();
        mirror.round();
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(15);
        assertThat(inventory.stock(sku).at("/redis/reserved").asLong()).isZero();
        assertThat(reconciler.check(sku)).isEmpty();
        // a caller that commits after the refusal takes nothing
        assertThat(action.confirm(context(xid, sku))).isTrue();
        JsonNode after = inventory.stock(sku);
        assertThat(after.at("/redis/sold").asLong()).isZero();
        assertThat(after.at("/redis/available").asLong()).isEqualTo(15);
        assertThat(after.at("/mysql/sold").asLong()).isZero();
    }

    /**
     * A stale SKU's refusal, which is not mirrored (a caller retries a 503): the Try's earlier slot group reserved in
     * Redis, a later one met a stale SKU, and the refusal was recorded in the MySQL store. A Cancel while Redis cannot
     * be asked does not end on that record (it would leave Redis's units reserved): it waits for Redis, and once
     * Redis answers, Redis's units go back.
     */
    @Test
    void aCancelWaitsForRedisWhenTheMySqlStoreHoldsOnlyAStaleSkusRefusal() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(10, null, 1);
        String xid = "127.0.0.1:8091:" + UUID.randomUUID();
        StockLine line = new StockLine(sku, 1);
        // the earlier slot group's line reserved in Redis; the refusal of the whole Try recorded in the MySQL store
        assertThat(tryScript.run(xid, "order-2", 7, "ida", List.of(line))).isEqualTo(new TryOutcome.Reserved());
        store.refuse(xid, "order-2", 7, "ida", line, MysqlReservations.STALE_SKU);

        // Redis out of reach: the MySQL store does not answer for it
        assertThat(store.cancel(xid, "order-2", 7, "ida", line, false)).isEmpty();
        // Seata's retry, Redis reachable again: its units go back
        assertThat(action.cancel(context(xid, sku, "order-2", "ida"))).isTrue();
        JsonNode s = inventory.stock(sku);
        assertThat(s.at("/redis/reserved").asLong()).isZero();
        assertThat(s.at("/redis/available").asLong()).isEqualTo(10);
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-2"), "state")).isEqualTo("CANCELLED");
    }

    private static BusinessActionContext context(String xid, String sku) {
        return context(xid, sku, "order-1", "gus");
    }

    private static BusinessActionContext context(String xid, String sku, String reservation, String user) {
        return context(xid, "7", reservation, user, sku + "*1");
    }
}
