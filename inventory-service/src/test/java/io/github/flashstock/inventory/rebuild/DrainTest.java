package io.github.flashstock.inventory.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The wait before a rebuild, against a scripted coordinator (no sleeping: pauses are only counted). */
class DrainTest {

    private static final RebuildSettings SETTINGS =
            new RebuildSettings(Duration.ofMillis(1), Duration.ofSeconds(5), Duration.ofSeconds(120));

    /** Answers the scripted replies in turn, then the last one forever. */
    private static final class Coordinator implements OpenTransactions {
        private final Deque<Optional<Set<String>>> replies;
        private final boolean configured;
        int asked;

        @SafeVarargs
        Coordinator(boolean configured, Optional<Set<String>>... replies) {
            this.configured = configured;
            this.replies = new ArrayDeque<>(List.of(replies));
        }

        @Override
        public boolean configured() {
            return configured;
        }

        @Override
        public Optional<Set<String>> openXids() {
            asked++;
            return replies.size() > 1 ? replies.poll() : replies.peek();
        }
    }

    private final List<Duration> pauses = new ArrayList<>();
    private final Predicate<Duration> pause = d -> pauses.add(d);

    @Test
    void waitsUntilEveryTransactionOpenAtTheStartHasEndedIgnoringLaterOnes() {
        Coordinator tc = new Coordinator(true, Optional.of(Set.of("a", "b")), Optional.of(Set.of("a", "b", "c")),
                Optional.of(Set.of("b", "c", "d")), Optional.of(Set.of("c", "d", "e")));

        assertThat(Drain.await(tc, SETTINGS, Set.of("sku"), pause)).isTrue();
        assertThat(tc.asked).isEqualTo(4);
    }

    @Test
    void aCoordinatorThatCannotBeAskedMidWayEndsNothing() {
        Coordinator tc = new Coordinator(true, Optional.of(Set.of("a")), Optional.empty(), Optional.empty(),
                Optional.of(Set.of("a")), Optional.of(Set.of()));

        assertThat(Drain.await(tc, SETTINGS, Set.of("sku"), pause)).isTrue();
        assertThat(tc.asked).isEqualTo(5);
    }

    @Test
    void nothingOpenIsDrainedAtOnce() {
        Coordinator tc = new Coordinator(true, Optional.of(Set.of()));

        assertThat(Drain.await(tc, SETTINGS, Set.of("sku"), pause)).isTrue();
        assertThat(pauses).isEmpty();
    }

    @Test
    void givesUpWhenATransactionDoesNotEndInTime() {
        RebuildSettings brief = new RebuildSettings(Duration.ofMillis(1), Duration.ofMillis(30), Duration.ZERO);
        Coordinator tc = new Coordinator(true, Optional.of(Set.of("stuck")));
        Predicate<Duration> sleep = d -> SkuRebuilds.pause(d);

        assertThat(Drain.await(tc, brief, Set.of("sku"), sleep)).isFalse();
    }

    @Test
    void givesUpWhenTheCoordinatorCannotBeAskedAtAll() {
        RebuildSettings brief = new RebuildSettings(Duration.ofMillis(1), Duration.ofMillis(30), Duration.ZERO);
        Coordinator tc = new Coordinator(true, Optional.empty());

        assertThat(Drain.await(tc, brief, Set.of("sku"), d -> SkuRebuilds.pause(d))).isFalse();
    }

    @Test
    void withoutACoordinatorWaitsTheFixedTimeInstead() {
        Coordinator tc = new Coordinator(false, Optional.empty());

        assertThat(Drain.await(tc, SETTINGS, Set.of("sku"), pause)).isTrue();
        assertThat(pauses).containsExactly(Duration.ofSeconds(120));
        assertThat(tc.asked).isZero();
    }
}
