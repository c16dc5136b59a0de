package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.reservation.CancelScript;
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
 * A Try that reached the MySQL store after its transaction had been rolled back, step by step on the real servers.
 * The first attempt went to the MySQL store (Redis's breaker open) and its
 * statement hung on a cut MariaDB link; the caller's retry went to another instance, where Redis refused it (the
 * buyer's limit) and recorded the refusal; the caller rolled back, and the Cancel found Redis's REFUSED record and
 * ended there, so the MySQL store had no row to cancel and got no tombstone; then the first attempt's statement went
 * through and took units from the allotment. No phase will come for them. The mirror, finding Redis's own record
 * ended without a sale under the same ids, cancels the MySQL store's reservation: its units go back to the allotment.
 */
class LateMysqlTryIT extends StoreSequenceITSupport {

    @Autowired
    CancelScript cancelScript;

    @Test
    void aMySqlStoreTryLandingAfterRedisRefusedTheRetryAndTheCancelEndedThereIsCancelledByTheMirror() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(20, null, 2);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, 5, "op-" + UUID.randomUUID(), "test"))
                .isInstanceOf(StockHandover.Result.Done.class);
        String xid = "127.0.0.1:8091:" + UUID.randomUUID();
        StockLine line = new StockLine(sku, 2);
        // holding the mirror's monitor keeps it from running between the steps
        assertThat(AopUtils.isAopProxy(mirror)).isFalse();
        synchronized (mirror) {
            // the retry, on another instance, is refused in Redis, which records the refusal (as StoreRouter does)
            assertThat(cancelScript.refuse(sku, xid, "order-1", java.time.Duration.ofMinutes(5),
                    new CancelScript.RecordedRefusal(TryOutcome.Code.PURCHASE_LIMIT_EXCEEDED, sku, 2, 2), 7).code())
                    .isEqualTo(io.github.flashstock.inventory.reservation.PhaseOutcome.Code.NO_RECORD);
            // the rollback: the Cancel finds Redis's REFUSED record and ends there
            assertThat(action.cancel(context(xid, sku))).isTrue();
            assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "state")).isEqualTo("REFUSED");
            assertThat(jdbc.queryForList("SELECT state FROM stock_ledger WHERE xid = ?", String.class, xid)).isEmpty();
            // the first attempt's statement goes through at last: the MySQL store has no row of the reservation
            assertThat(store.reserve(new TryRequest(xid, "order-1", 7, "hal", List.of(line)), false))
                    .isEqualTo(new TryOutcome.Reserved());
            assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(3);
        }

        // the mirror's next round (its own worker, waiting on the monitor, may take it first), and one more for the
        // CANCELLED row it leaves
        mirror.round();
        mirror.round();

        JsonNode s = inventory.stock(sku);
        assertThat(s.at("/mysql/allotment/available").asLong()).as("the late Try's units back").isEqualTo(5);
        assertThat(s.at("/mysql/allotment/sold").asLong()).isZero();
        assertThat(s.at("/redis/available").asLong()).isEqualTo(15);
        assertThat(s.at("/redis/reserved").asLong()).isZero();
        assertThat(s.at("/mysql/sold").asLong()).isZero();
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "hal"))).isNull();
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "state")).isEqualTo("REFUSED");
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state, ' ', redis_mirrored) FROM stock_ledger"
                + " WHERE xid = ?", String.class, xid)).containsExactly("MYSQL CANCELLED 1");
        // a retried Cancel changes nothing
        assertThat(action.cancel(context(xid, sku))).isTrue();
        assertThat(inventory.stock(sku).at("/mysql/allotment/available").asLong()).isEqualTo(5);
        assertThat(reconciler.check(sku)).isEmpty();
    }

    private static BusinessActionContext context(String xid, String sku) {
        return context(xid, "8", "order-1", "hal", sku + "*2");
    }
}
