package io.github.flashstock.inventory.allotment;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The allotments' settings: units or a share, per SKU or by default; invalid values rejected one by one. */
class AllotmentSettingsReaderTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private AllotmentPlan read(MockEnvironment environment, AllotmentPlan inForce) {
        return new AllotmentSettingsReader(environment, meters).read(inForce);
    }

    private double rejected() {
        return meters.find("inventory.allotment.rejected").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void readsUnitsAndSharesByDefaultAndPerSku() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.mysql-store.allotment.default", "10%")
                .withProperty("inventory.mysql-store.allotment.skus.hot-1", "500")
                .withProperty("inventory.mysql-store.allotment.skus[sku.with.dots]", " 25 % ");

        AllotmentPlan plan = read(environment, AllotmentPlan.NONE);

        assertThat(plan.defaultTarget()).isEqualTo(AllotmentTarget.ofPercent(10));
        assertThat(plan.perSku()).isEqualTo(Map.of("hot-1", AllotmentTarget.ofUnits(500),
                "sku.with.dots", AllotmentTarget.ofPercent(25)));
        assertThat(plan.noDefault()).isFalse();
        assertThat(plan.targetFor("other").unitsFor(1_000)).isEqualTo(100);
        assertThat(plan.targetFor("hot-1").unitsFor(1_000)).isEqualTo(500);
        assertThat(rejected()).isZero();
    }

    @Test
    void keepsTheValueInForceForEveryInvalidOne() {
        AllotmentPlan inForce = new AllotmentPlan(AllotmentTarget.ofUnits(7), Map.of("a", AllotmentTarget.ofUnits(1),
                "b", AllotmentTarget.ofPercent(5), "c", AllotmentTarget.ofUnits(3)));
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.mysql-store.allotment.default", "lots")
                .withProperty("inventory.mysql-store.allotment.skus.a", "-1")
                .withProperty("inventory.mysql-store.allotment.skus.b", "101%")
                .withProperty("inventory.mysql-store.allotment.skus.c", "2.5")
                .withProperty("inventory.mysql-store.allotment.skus.d", "x%")
                .withProperty("inventory.mysql-store.allotment.skus.e", "0");

        AllotmentPlan plan = read(environment, inForce);

        assertThat(plan.defaultTarget()).isEqualTo(AllotmentTarget.ofUnits(7));
        assertThat(plan.perSku()).isEqualTo(Map.of("a", AllotmentTarget.ofUnits(1), "b", AllotmentTarget.ofPercent(5),
                "c", AllotmentTarget.ofUnits(3), "e", AllotmentTarget.ofUnits(0)));
        assertThat(plan.targetFor("d")).as("a new value that is invalid adds nothing").isEqualTo(AllotmentTarget.ofUnits(7));
        assertThat(rejected()).isEqualTo(5);
    }

    @Test
    void aMapWhereAValueStandsIsRejectedWithoutFailingTheRead() {
        AllotmentPlan inForce = new AllotmentPlan(AllotmentTarget.ofPercent(10), Map.of("a", AllotmentTarget.ofUnits(4)));
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.mysql-store.allotment.skus", "not a map");

        AllotmentPlan plan = read(environment, inForce);

        assertThat(plan).isEqualTo(inForce);
        assertThat(rejected()).isEqualTo(1);
    }

    @Test
    void aTargetNeverExceedsWhatTheSkuHasAndAShareRoundsDownWithoutOverflow() {
        assertThat(AllotmentTarget.ofUnits(50).unitsFor(20)).isEqualTo(20);
        assertThat(AllotmentTarget.ofPercent(10).unitsFor(19)).isEqualTo(1);
        assertThat(AllotmentTarget.ofPercent(10).unitsFor(9)).isZero();
        assertThat(AllotmentTarget.ofPercent(100).unitsFor(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(AllotmentTarget.ofPercent(10).unitsFor(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / 10);
        assertThat(AllotmentTarget.ofPercent(0).none()).isTrue();
        assertThat(AllotmentTarget.ofUnits(0).none()).isTrue();
        assertThat(AllotmentTarget.ofPercent(1).none()).isFalse();
    }

    @Test
    void aShareMovesOnlyWhenItIsOffByMoreThanATenthUnitsOnAnyDifference() {
        assertThat(AllotmentTarget.ofPercent(10).worthMoving(95, 100)).isFalse();
        assertThat(AllotmentTarget.ofPercent(10).worthMoving(89, 100)).isTrue();
        assertThat(AllotmentTarget.ofPercent(10).worthMoving(3, 0)).isTrue();
        assertThat(AllotmentTarget.ofUnits(50).worthMoving(49, 50)).isTrue();
        assertThat(AllotmentTarget.ofUnits(50).worthMoving(50, 50)).isFalse();
    }
}
