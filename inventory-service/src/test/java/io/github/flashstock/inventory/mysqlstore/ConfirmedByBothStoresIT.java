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
 * A reservation that both stores confirmed, step by step on the real servers. Its first Try's Redis call times out
 * after it was sent, so the caller's retry goes to the MySQL store (the breaker is open); the first call then lands
 * in Redis late; the Confirm runs in the MySQL store while Redis is out of reach, and Seata's retry of it (the first
 * answer lost) reaches Redis, which confirms its own record of the late Try, all before the mirror has told Redis
 * about the MySQL store's row: one unit too many sold. The mirror's next round gives Redis's sale back: both stores
 * then agree to the unit, the buyer's count holds the reservation once, and the reconciler finds nothing.
 */
class ConfirmedByBothStoresIT extends StoreSequenceITSupport {

    @Autowired
    TryScript tryScript;

    @Test
    void aSaleBothStoresMadeIsReturnedInRedisAndBothStoresAgree() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(20, 2, 2);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 5, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        String xid = "127.0.0.1:8091:" + UUID.randomUUID();
        StockLine line = new StockLine(sku, 1);
        // the mirror's rounds wait on its monitor: holding it keeps the mirror from running between the steps, as
        // Redis being out of reach did
        assertThat(AopUtils.isAopProxy(mirror)).isFalse();
        synchronized (mirror) {
            // the retried Try goes to the MySQL store
            assertThat(store.reserve(new TryRequest(xid, "order-1", 7, "gus", List.of(line)), false))
                    .isEqualTo(new TryOutcome.Reserved());
            // the first attempt's Redis call lands late: Redis has no record of the reservation, so it reserves
            assertThat(tryScript.run(xid, "order-1", 7, "gus", List.of(line))).isEqualTo(new TryOutcome.Reserved());
            // the Confirm while Redis is out of reach: the MySQL store holds the line and sells it
            assertThat(store.confirm(xid, "order-1", line)).contains(new PhaseOutcome.Applied(1));
            // Seata's retry of the Confirm, through the participant: Redis answers with its own record
            assertThat(action.confirm(confirmContext(xid, sku))).isTrue();

            JsonNode both = inventory.stock(sku);
            assertThat(both.at("/redis/sold").asLong()).as("Redis sold it").isEqualTo(1);
            assertThat(both.at("/mysql/allotment/sold").asLong()).as("the MySQL store sold it").isEqualTo(1);
        }

        // the mirror's next round (its own worker, waiting on the monitor, may take it first)
        mirror.round();

        JsonNode s = inventory.stock(sku);
        assertThat(s.at("/redis/sold").asLong()).isZero();
        assertThat(s.at("/redis/available").asLong()).isEqualTo(15);
        assertThat(s.at("/redis/reserved").asLong()).isZero();
        assertThat(s.at("/mysql/sold").asLong()).isEqualTo(1);
        assertThat(s.at("/mysql/allotment/sold").asLong()).isEqualTo(1);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "gus"))).isEqualTo("1");
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "state")).isEqualTo("MYSQL");
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state, ' ', redis_mirrored) FROM stock_ledger"
                + " WHERE xid = ?", String.class, xid)).containsExactly("MYSQL CONFIRMED 1");
        // a further retry of the Confirm finds the MySQL store's record, and a further round nothing to do
        assertThat(action.confirm(confirmContext(xid, sku))).isTrue();
        mirror.round();
        assertThat(inventory.stock(sku).at("/redis/available").asLong()).isEqualTo(15);
        assertThat(reconciler.check(sku)).isEmpty();
    }

    private static BusinessActionContext confirmContext(String xid, String sku) {
        return context(xid, "7", "order-1", "gus", sku + "*1");
    }
}
