package io.github.flashstock.inventory.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.SkuStockRow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The drift arithmetic: Redis's unsold units against MySQL's available ones, and sold against sold. */
class DriftTest {

    private static RedisStock redis(long stocked, long available, long reserved, long sold) {
        return new RedisStock("s", stocked, available, reserved, sold, 0, 1, List.of());
    }

    private static SkuStockRow mysql(long stocked, long sold, long reserved) {
        return new SkuStockRow("s", stocked, sold, reserved, 0, 0, 0, null, 0);
    }

    @Test
    void storesThatAgreeReportNothingEvenWithTriesOpen() {
        // 100 stocked, 30 sold, 5 reserved by open Tries in Redis (MySQL sees them as available)
        assertThat(Reconciler.drift(Optional.of(redis(100, 65, 5, 30)), mysql(100, 30, 0))).isEmpty();
        // MySQL's own reserve (the MySQL store's Tries) is not Redis's to hold
        assertThat(Reconciler.drift(Optional.of(redis(90, 60, 0, 30)), mysql(100, 30, 10))).isEmpty();
    }

    @Test
    void unitsThatAppearedInRedisAreReportedWithTheirDifference() {
        Optional<Map<String, Object>> facts = Reconciler.drift(Optional.of(redis(105, 75, 0, 30)), mysql(100, 30, 0));

        assertThat(facts).get().satisfies(f -> assertThat(f).containsEntry("redisUnsold", 75L)
                .containsEntry("mysqlAvailable", 70L).containsEntry("unsoldDifference", 5L)
                .containsEntry("soldDifference", 0L));
    }

    @Test
    void aConfirmRedisDidNotRecordInMySqlIsASoldDifference() {
        Optional<Map<String, Object>> facts = Reconciler.drift(Optional.of(redis(100, 68, 0, 32)), mysql(100, 30, 0));

        assertThat(facts).get().satisfies(f -> assertThat(f).containsEntry("soldDifference", 2L)
                .containsEntry("unsoldDifference", -2L));
    }

    @Test
    void aSkuRedisDoesNotHoldIsMissing() {
        assertThat(Reconciler.drift(Optional.empty(), mysql(100, 30, 0)))
                .contains(Map.of("redisMissing", true, "mysqlAvailable", 70L));
    }
}
