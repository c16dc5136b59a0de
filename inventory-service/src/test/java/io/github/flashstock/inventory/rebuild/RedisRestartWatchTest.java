package io.github.flashstock.inventory.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When {@link RedisRestartWatch} looks for stale SKUs: on a change of the primaries' run ids, and only then. */
class RedisRestartWatchTest {

    private final Deque<Optional<Set<String>>> readings = new ArrayDeque<>();
    private final AtomicInteger sweeps = new AtomicInteger();
    private final AtomicInteger failingSweeps = new AtomicInteger();
    private final RedisRestartWatch watch = new RedisRestartWatch(readings::removeFirst, () -> {
        sweeps.incrementAndGet();
        if (failingSweeps.getAndDecrement() > 0) {
            throw new IllegalStateException("MySQL away");
        }
    }, Duration.ofSeconds(2));

    @Test
    void theFirstReadingOnlyRemembersAndTheSameIdsChangeNothing() {
        check(Set.of("a", "b"));
        check(Set.of("b", "a"));

        assertThat(sweeps).hasValue(0);
    }

    @Test
    void aNewRunIdOfAnyPrimarySweepsOnceAndAFailedReadingIsNoChange() {
        check(Set.of("a", "b"));
        check(null);
        check(Set.of("a", "b2"));
        check(Set.of("a", "b2"));
        check(null);
        check(Set.of("a", "b2"));

        assertThat(sweeps).hasValue(1);
    }

    @Test
    void aSweepThatFailsIsTriedAgainAtTheNextCheck() {
        check(Set.of("a"));
        failingSweeps.set(1);
        check(Set.of("a2"));
        check(Set.of("a2"));
        check(Set.of("a2"));

        assertThat(sweeps).hasValue(2);
    }

    private void check(Set<String> ids) {
        readings.add(Optional.ofNullable(ids));
        watch.check();
    }
}
