package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.sale.ChaosSchedule.Action;
import io.github.flashstock.sale.ChaosSchedule.Step;
import io.github.flashstock.sale.ChaosSchedule.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ChaosScheduleTest {

    @Test
    void theSameSeedDrawsTheSameScheduleAndAnotherSeedAnother() {
        ChaosSchedule a = ChaosSchedule.draw(7, Duration.ofMinutes(10));
        assertThat(ChaosSchedule.draw(7, Duration.ofMinutes(10))).isEqualTo(a);
        assertThat(ChaosSchedule.draw(8, Duration.ofMinutes(10)).steps()).isNotEqualTo(a.steps());
    }

    @Test
    void tenMinutesReachEveryTargetWithEveryActionItTakesAndOverlapFaults() {
        ChaosSchedule schedule = ChaosSchedule.draw(1, Duration.ofMinutes(10));
        Set<Target> hit = schedule.steps().stream().map(Step::target).collect(Collectors.toSet());
        assertThat(hit).isEqualTo(EnumSet.allOf(Target.class));
        Set<Action> actions = schedule.steps().stream().map(Step::action).collect(Collectors.toSet());
        assertThat(actions).containsExactlyInAnyOrder(Action.KILL, Action.PAUSE, Action.CUT);
        assertThat(schedule.mostAtOnce()).isGreaterThanOrEqualTo(2);
        assertThat(schedule.steps().size()).isBetween(30, 80);
    }

    @Test
    void twoMinutesStillOverlapFaults() {
        for (long seed = 1; seed <= 5; seed++) {
            ChaosSchedule schedule = ChaosSchedule.draw(seed, Duration.ofMinutes(2));
            assertThat(schedule.steps()).as("seed " + seed).hasSizeGreaterThanOrEqualTo(4);
        }
    }

    @Property(tries = 200)
    void everyScheduleKeepsItsRules(@ForAll long seed, @ForAll @IntRange(min = 1, max = 15) int minutes) {
        Duration length = Duration.ofMinutes(minutes);
        List<Step> steps = ChaosSchedule.draw(seed, length).steps();
        for (Step s : steps) {
            assertThat(s.ends()).isLessThanOrEqualTo(length.minusSeconds(ChaosSchedule.QUIET_END_S));
            assertThat(s.lasts()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(10));
            assertThat(s.instance()).isBetween(0, s.target().instances() - 1);
            assertThat(s.action() == Action.CUT).isEqualTo(s.target() == Target.INVENTORY_TO_MARIADB
                    || s.target() == Target.ORDER_DEMO_TO_MARIADB);
            for (Step o : steps) {
                if (o == s) {
                    continue;
                }
                if (o.target() == s.target() && o.instance() == s.instance()) {
                    assertThat(o.overlaps(s.at(), s.ends())).as("one fault at a time on " + s.describe()).isFalse();
                }
                if (o.target() == Target.REDIS_NODE && s.target() == Target.REDIS_NODE) {
                    assertThat(o.overlaps(s.at().minusSeconds(ChaosSchedule.REDIS_QUIET_S),
                            s.ends().plusSeconds(ChaosSchedule.REDIS_QUIET_S)))
                            .as("Redis nodes one at a time, " + ChaosSchedule.REDIS_QUIET_S + " s apart").isFalse();
                }
            }
            long underWay = steps.stream().filter(o -> o.overlaps(s.at(), s.at().plusMillis(1))).count();
            assertThat(underWay).isLessThanOrEqualTo(ChaosSchedule.MOST_AT_ONCE);
        }
    }

    @Test
    void thePrintedScheduleNamesTheSeedAndEveryFault() {
        ChaosSchedule schedule = ChaosSchedule.draw(3, Duration.ofMinutes(2));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        schedule.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertThat(printed).startsWith("chaos schedule, seed 3, 120 s: " + schedule.steps().size() + " faults");
        schedule.steps().forEach(s -> assertThat(printed).contains(s.describe()));
    }
}
