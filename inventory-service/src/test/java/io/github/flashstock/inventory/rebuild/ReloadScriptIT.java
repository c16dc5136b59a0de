package io.github.flashstock.inventory.rebuild;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code lua/reload.lua} (with {@code lua/unlock.lua} for its lock): every reply code, and the lock. */
class ReloadScriptIT extends ScriptITSupport {

    @Test
    void rebuildsFromMySqlPlusTheOpenReservationsWhichStillEndCorrectly() {
        // Given 20 units in 2 segments: 4 confirmed (MySQL sold 4), 3 and 2 still open
        String sku = scripts.sku(20, 0, 2);
        String confirmed = xid();
        String openA = xid();
        String openB = xid();
        scripts.tryScript.run(confirmed, "order-c", 1, "u1", lines(sku, 4));
        scripts.confirm.run(sku, confirmed, "order-c", RETENTION, 4, "u1");
        scripts.tryScript.run(openA, "order-a", 2, "u2", lines(sku, 3));
        scripts.tryScript.run(openB, "order-b", 3, "u3", lines(sku, 2));
        // and Redis's counters got damaged
        scripts.redis.opsForHash().put(StockKeys.stock(sku), "available", "999");
        scripts.redis.opsForHash().put(StockKeys.stock(sku), "reserved", "0");
        scripts.redis.delete(StockKeys.segment(sku, 1));

        // When it is rebuilt from MySQL (stocked 20, sold 4, nothing reserved on the MySQL store)
        Optional<ReloadOutcome> outcome = scripts.reload.run(sku, 20, 4, 0, 0, Duration.ofSeconds(30));

        // Then Redis holds MySQL's units, with the open reservations reserved where their records say
        assertThat(outcome).contains(new ReloadOutcome.Reloaded(11, 5, 4, 2));
        RedisStock s = scripts.stock(sku);
        assertConserved(s);
        assertThat(s.stocked()).isEqualTo(20);
        assertThat(s.available()).isEqualTo(11);
        assertThat(scripts.confirm.run(sku, openA, "order-a", RETENTION, 3, "u2")).isEqualTo(new PhaseOutcome.Applied(3));
        assertThat(scripts.cancel.run(sku, openB, "order-b", RETENTION)).isEqualTo(new PhaseOutcome.Applied(2));
        RedisStock after = scripts.stock(sku);
        assertConserved(after);
        assertThat(after.reserved()).isZero();
        assertThat(after.sold()).isEqualTo(7);
        assertThat(after.unsold()).isEqualTo(13);
        assertThat(scripts.redis.opsForSet().size(StockKeys.open(sku))).isZero();
        // and a replay computes the same state
        assertThat(scripts.reload.run(sku, 20, 7, 0, 0, Duration.ofSeconds(30)))
                .contains(new ReloadOutcome.Reloaded(13, 0, 7, 0));
    }

    @Test
    void refusesWhenOpenReservationsExceedWhatMySqlHasAvailable() {
        String sku = scripts.skuWithAvailable(10);
        scripts.tryScript.run(xid(), "order-a", 1, "u1", lines(sku, 6));
        RedisStock before = scripts.stock(sku);

        Optional<ReloadOutcome> outcome = scripts.reload.run(sku, 5, 0, 0, 0, Duration.ofSeconds(30));

        assertThat(outcome).contains(new ReloadOutcome.OpenExceedsStock(5, 6, 1));
        assertThat(scripts.stock(sku)).isEqualTo(before);
    }

    @Test
    void neverRunsTwoRebuildsOfOneSkuAtOnce() {
        String sku = scripts.skuWithAvailable(10);
        scripts.redis.opsForValue().set(ReloadScript.lockKey(sku), "someone-else", Duration.ofSeconds(30));

        assertThat(scripts.reload.run(sku, 10, 0, 0, 0, Duration.ofSeconds(30))).isEmpty();
        // the other holder's lock is left alone
        assertThat(scripts.redis.opsForValue().get(ReloadScript.lockKey(sku))).isEqualTo("someone-else");

        scripts.redis.delete(ReloadScript.lockKey(sku));
        assertThat(scripts.reload.run(sku, 10, 0, 0, 0, Duration.ofSeconds(30))).isPresent();
        assertThat(scripts.redis.hasKey(ReloadScript.lockKey(sku))).isFalse();
    }
}
