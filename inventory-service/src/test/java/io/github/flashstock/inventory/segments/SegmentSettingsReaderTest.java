package io.github.flashstock.inventory.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.env.MockEnvironment;

class SegmentSettingsReaderTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private SegmentPlan read(MockEnvironment environment, SegmentPlan inForce) {
        return new SegmentSettingsReader(environment, meters).read(inForce);
    }

    private double rejected() {
        return meters.find("inventory.segments.rejected").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void readsTheDefaultAndPerSkuOverrides() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.segments.default", "2")
                .withProperty("inventory.segments.skus.hot-1", "8")
                .withProperty("inventory.segments.skus[sku.with.dots]", "3");

        SegmentPlan plan = read(environment, SegmentPlan.INITIAL);

        assertThat(plan.defaultCount()).isEqualTo(2);
        assertThat(plan.perSku()).isEqualTo(Map.of("hot-1", 8, "sku.with.dots", 3));
        assertThat(plan.countFor("hot-1")).isEqualTo(8);
        assertThat(plan.countFor("other")).isEqualTo(2);
        assertThat(rejected()).isZero();
    }

    @Test
    void keepsTheCountInForceForEveryInvalidValue() {
        SegmentPlan inForce = new SegmentPlan(4, Map.of("a", 2, "b", 3, "c", 5, "d", 6));
        MockEnvironment environment = new MockEnvironment()
                .withProperty("inventory.segments.default", "many")
                .withProperty("inventory.segments.skus.a", "0")
                .withProperty("inventory.segments.skus.b", "-3")
                .withProperty("inventory.segments.skus.c", "65")
                .withProperty("inventory.segments.skus.d", "2.5")
                .withProperty("inventory.segments.skus.e", "x")
                .withProperty("inventory.segments.skus.f", "64");

        SegmentPlan plan = read(environment, inForce);

        assertThat(plan.defaultCount()).isEqualTo(4);
        assertThat(plan.perSku()).isEqualTo(Map.of("a", 2, "b", 3, "c", 5, "d", 6, "f", 64));
        assertThat(plan.countFor("e")).as("a new override that is invalid adds nothing").isEqualTo(4);
        assertThat(rejected()).isEqualTo(6);
    }

    @Test
    void anOverrideThatIsGoneFallsBackToTheDefault() {
        SegmentPlan inForce = new SegmentPlan(1, Map.of("hot-1", 8));

        SegmentPlan plan = read(new MockEnvironment().withProperty("inventory.segments.default", "1"), inForce);

        assertThat(plan.countFor("hot-1")).isEqualTo(1);
    }

    @Test
    void readsThePushedDataIdInPlaceOfTheOldOneAndLetsOtherSourcesKeepTheirSay() throws Exception {
        String pushed = """
                inventory:
                  segments:
                    default: ${SEGMENTS_DEFAULT:2}
                    skus: {hot-9: 4, warm-1: 3, broken: 0}
                """;
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("command line",
                Map.of("inventory.segments.skus.warm-1", "5")));
        // as the config import leaves it: a map source named <group>@<dataId>
        environment.getPropertySources().addLast(new MapPropertySource("DEFAULT_GROUP@inventory-service.yaml",
                Map.of("inventory.segments.skus.hot-9", "2")));
        ConfigurationPropertySources.attach(environment);

        Optional<Binder> binder = NacosSegmentsListener.withPushed(environment, "DEFAULT_GROUP",
                "inventory-service.yaml", pushed);
        SegmentPlan plan = new SegmentSettingsReader(environment, meters).read(binder.orElseThrow(),
                SegmentPlan.INITIAL);

        assertThat(plan.defaultCount()).as("placeholder resolved").isEqualTo(2);
        assertThat(plan.perSku()).as("the push replaces the old dataId; the command line still wins")
                .isEqualTo(Map.of("hot-9", 4, "warm-1", 5));
        assertThat(rejected()).isEqualTo(1);
    }

    @Test
    void leavesAPushToTheRefreshWhenTheEnvironmentHoldsNoSourceOfThatDataId() throws Exception {
        assertThat(NacosSegmentsListener.withPushed(new StandardEnvironment(), "DEFAULT_GROUP", "inventory-service.yaml",
                "inventory: {segments: {default: 3}}")).isEmpty();
    }
}
