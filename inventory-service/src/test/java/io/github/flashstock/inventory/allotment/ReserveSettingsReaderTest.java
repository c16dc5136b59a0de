package io.github.flashstock.inventory.allotment;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The reserves' settings: units or a share, per SKU or by default; invalid values rejected one by one. */
class ReserveSettingsReaderTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private ReservePlan read(MockEnvironment environment, ReservePlan inForce) {
        return new ReserveSettingsReader(environment, meters).read(inForce);
    }

    private double rejected() {
        return meters.find("inventory.fallback.reserve.rejected").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void readsUnitsAndSharesByDefaultAndPerSku() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.fallback.reserve.default", "10%")
                .withProperty("inventory.fallback.reserve.skus.hot-1", "500")
                .withProperty("inventory.fallback.reserve.skus[sku.with.dots]", " 25 % ");

        ReservePlan plan = read(environment, ReservePlan.NONE);

        assertThat(plan.defaultTarget()).isEqualTo(ReserveTarget.ofPercent(10));
        assertThat(plan.perSku()).isEqualTo(Map.of("hot-1", ReserveTarget.ofUnits(500),
                "sku.with.dots", ReserveTarget.ofPercent(25)));
        assertThat(plan.noDefault()).isFalse();
        assertThat(plan.targetFor("other").unitsFor(1_000)).isEqualTo(100);
        assertThat(plan.targetFor("hot-1").unitsFor(1_000)).isEqualTo(500);
        assertThat(rejected()).isZero();
    }

    @Test
    void keepsTheValueInForceForEveryInvalidOne() {
        ReservePlan inForce = new ReservePlan(ReserveTarget.ofUnits(7), Map.of("a", ReserveTarget.ofUnits(1),
                "b", ReserveTarget.ofPercent(5), "c", ReserveTarget.ofUnits(3)));
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.fallback.reserve.default", "lots")
                .withProperty("inventory.fallback.reserve.skus.a", "-1")
                .withProperty("inventory.fallback.reserve.skus.b", "101%")
                .withProperty("inventory.fallback.reserve.skus.c", "2.5")
                .withProperty("inventory.fallback.reserve.skus.d", "x%")
                .withProperty("inventory.fallback.reserve.skus.e", "0");

        ReservePlan plan = read(environment, inForce);

        assertThat(plan.defaultTarget()).isEqualTo(ReserveTarget.ofUnits(7));
        assertThat(plan.perSku()).isEqualTo(Map.of("a", ReserveTarget.ofUnits(1), "b", ReserveTarget.ofPercent(5),
                "c", ReserveTarget.ofUnits(3), "e", ReserveTarget.ofUnits(0)));
        assertThat(plan.targetFor("d")).as("a new value that is invalid adds nothing").isEqualTo(ReserveTarget.ofUnits(7));
        assertThat(rejected()).isEqualTo(5);
    }

    @Test
    void aMapWhereAValueStandsIsRejectedWithoutFailingTheRead() {
        ReservePlan inForce = new ReservePlan(ReserveTarget.ofPercent(10), Map.of("a", ReserveTarget.ofUnits(4)));
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.fallback.reserve.skus", "not a map");

        ReservePlan plan = read(environment, inForce);

        assertThat(plan).isEqualTo(inForce);
        assertThat(rejected()).isEqualTo(1);
    }

    @Test
    void aTargetNeverExceedsWhatTheSkuHasAndAShareRoundsDownWithoutOverflow() {
        assertThat(ReserveTarget.ofUnits(50).unitsFor(20)).isEqualTo(20);
        assertThat(ReserveTarget.ofPercent(10).unitsFor(19)).isEqualTo(1);
        assertThat(ReserveTarget.ofPercent(10).unitsFor(9)).isZero();
        assertThat(ReserveTarget.ofPercent(100).unitsFor(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(ReserveTarget.ofPercent(10).unitsFor(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / 10);
        assertThat(ReserveTarget.ofPercent(0).none()).isTrue();
        assertThat(ReserveTarget.ofUnits(0).none()).isTrue();
        assertThat(ReserveTarget.ofPercent(1).none()).isFalse();
    }

    @Test
    void aShareMovesOnlyWhenItIsOffByMoreThanATenthUnitsOnAnyDifference() {
        assertThat(ReserveTarget.ofPercent(10).worthMoving(95, 100)).isFalse();
        assertThat(ReserveTarget.ofPercent(10).worthMoving(89, 100)).isTrue();
        assertThat(ReserveTarget.ofPercent(10).worthMoving(3, 0)).isTrue();
        assertThat(ReserveTarget.ofUnits(50).worthMoving(49, 50)).isTrue();
        assertThat(ReserveTarget.ofUnits(50).worthMoving(50, 50)).isFalse();
    }
}
