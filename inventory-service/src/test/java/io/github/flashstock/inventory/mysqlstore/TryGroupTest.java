package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.StockLine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a group of one SKU's Tries is decided: in order, each as it would be alone after the ones before it. */
class TryGroupTest {

    private static final String SKU = "sku-1";

    /** A SKU of 100 units, {@code allotment} of them the MySQL store's, the rest Redis's. */
    private static SkuStockRow sku(long allotment, Integer limit) {
        return new SkuStockRow(SKU, 100, 0, 0, allotment, 0, 0, limit, 7);
    }

    private static TryGroup.Attempt attempt(String reservation, String user, int units, boolean redisReachable) {
        return new TryGroup.Attempt(new TryRequest("xid-" + reservation, reservation, 1, user,
                List.of(new StockLine(SKU, units))), redisReachable, false);
    }

    private static TryGroup.Attempt attempt(String reservation, String user, int units) {
        return attempt(reservation, user, units, true);
    }

    @Test
    void eachTryGetsTheUnitsTheOnesBeforeItLeftAndARefusalTakesNothing() {
        TryGroup.Plan plan = TryGroup.decide(sku(5, null), Set.of(), Map.of(), List.of(
                attempt("a", "alice", 2), attempt("b", "bob", 2), attempt("c", "carol", 2), attempt("d", "dave", 1)));

        assertThat(plan.answers()).containsExactly(Optional.of(new TryOutcome.Reserved()),
                Optional.of(new TryOutcome.Reserved()), Optional.of(new TryOutcome.InsufficientStock(SKU, 2, 1)),
                Optional.of(new TryOutcome.Reserved()));
        assertThat(plan.accepted()).extracting(a -> a.request().reservationId()).containsExactly("a", "b", "d");
        assertThat(plan.units()).isEqualTo(5);
        assertThat(plan.availableAfter()).isZero();
        assertThat(plan.sawShort()).isTrue();
    }

    @Test
    void whileRedisIsOutOfReachAShortAllotmentIsNotNowAsTheSinglePathSaysIt() {
        TryGroup.Plan plan = TryGroup.decide(sku(3, null), Set.of(), Map.of(), List.of(
                attempt("a", "alice", 2, false), attempt("b", "bob", 2, false), attempt("c", "carol", 2, true)));

        // the other units are Redis's: "not now" for a Try Redis did not answer, "sold out" for one it refused
        assertThat(plan.answers().get(1)).contains(MysqlReservations.reserveShort(SKU, 1, 97, 2, false));
        assertThat(plan.answers().get(1).orElseThrow()).isInstanceOfSatisfying(TryOutcome.MysqlStoreBusy.class,
                busy -> assertThat(busy.message()).contains("allotment has 1 unit(s), 2 requested"));
        assertThat(plan.answers().get(2)).contains(new TryOutcome.InsufficientStock(SKU, 2, 1));
        // with Redis's share empty too it is sold out either way
        assertThat(TryGroup.decide(new SkuStockRow(SKU, 3, 0, 0, 3, 0, 0, null, 1), Set.of(), Map.of(),
                List.of(attempt("a", "alice", 4, false))).answers())
                .containsExactly(Optional.of(new TryOutcome.InsufficientStock(SKU, 4, 3)));
    }

    @Test
    void thePerUserLimitCountsWhatTheBuyerHeldAndWhatTheGroupGaveThemBefore() {
        TryGroup.Plan plan = TryGroup.decide(sku(50, 3), Set.of(), Map.of("alice", 1L), List.of(
                attempt("a1", "alice", 1), attempt("b1", "bob", 3), attempt("a2", "alice", 2),
                attempt("a3", "alice", 1), attempt("b2", "bob", 1)));

        assertThat(plan.answers()).containsExactly(Optional.of(new TryOutcome.Reserved()),
                Optional.of(new TryOutcome.Reserved()),
                Optional.of(new TryOutcome.PurchaseLimitExceeded(SKU, 2, 3, 2)),
                Optional.of(new TryOutcome.Reserved()),
                Optional.of(new TryOutcome.PurchaseLimitExceeded(SKU, 1, 3, 3)));
        assertThat(plan.units()).isEqualTo(5);
        assertThat(plan.sawShort()).isFalse();
    }

    @Test
    void theAllotmentIsCheckedBeforeTheLimitAsAlone() {
        TryGroup.Plan plan = TryGroup.decide(sku(1, 3), Set.of(), Map.of("alice", 3L), List.of(
                attempt("a", "alice", 2), attempt("b", "alice", 1)));

        assertThat(plan.answers()).containsExactly(Optional.of(new TryOutcome.InsufficientStock(SKU, 2, 1)),
                Optional.of(new TryOutcome.PurchaseLimitExceeded(SKU, 1, 3, 3)));
        assertThat(plan.accepted()).isEmpty();
    }

    @Test
    void aReservationWithARowAlreadyOrTwiceInTheGroupIsLeftToTheGeneralPath() {
        TryGroup.Plan plan = TryGroup.decide(sku(10, null), Set.of(new TryGroup.Key("xid-old", "old")), Map.of(),
                List.of(attempt("old", "alice", 1), attempt("new", "bob", 1), attempt("new", "bob", 1)));

        assertThat(plan.answers()).containsExactly(Optional.empty(), Optional.of(new TryOutcome.Reserved()),
                Optional.empty());
        assertThat(plan.accepted()).extracting(a -> a.request().reservationId()).containsExactly("new");
        assertThat(plan.units()).isEqualTo(1);
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new MysqlStoreCoalescing(0, 1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-batch and in-flight");
        assertThatThrownBy(() -> new MysqlStoreCoalescing(8, 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MysqlStoreCoalescing(8, 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-wait");
    }
}
