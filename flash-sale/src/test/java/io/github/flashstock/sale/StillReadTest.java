package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.sale.StillRead.HandoverMark;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StillReadTest {

    private static final HandoverMark QUIET = new HandoverMark(4, "2026-12-06 15:20:01.100", 0);

    /** The looks at the handovers, in the order the read takes them. */
    private static Deque<HandoverMark> looks(HandoverMark... marks) {
        return new ArrayDeque<>(List.of(marks));
    }

    @Test
    void aReadBetweenTwoQuietLooksIsKeptAtOnce() {
        Deque<HandoverMark> looks = looks(QUIET, QUIET);
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger pauses = new AtomicInteger();

        StillRead.Result<Integer> r = StillRead.read(looks::removeFirst, reads::incrementAndGet, 5,
                pauses::incrementAndGet);

        assertThat(r.still()).isTrue();
        assertThat(r.value()).isEqualTo(1);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(pauses).hasValue(0);
    }

    @Test
    void aHandoverPendingAtTheFirstLookMakesItReadAgain() {
        // one unit on its way to Redis, taken out of the allotment and not yet added to Redis, while the view reads
        // both stores
        HandoverMark pending = new HandoverMark(5, "2026-12-06 15:20:02.000", 1);
        HandoverMark done = new HandoverMark(5, "2026-12-06 15:20:02.040", 0);
        Deque<HandoverMark> looks = looks(pending, done, done, done);
        AtomicInteger reads = new AtomicInteger();

        StillRead.Result<Integer> r = StillRead.read(looks::removeFirst, reads::incrementAndGet, 5, () -> { });

        assertThat(r.still()).isTrue();
        assertThat(r.value()).as("the second read is the one kept").isEqualTo(2);
        assertThat(r.attempts()).isEqualTo(2);
    }

    @Test
    void aHandoverThatStartedAndEndedDuringTheReadMakesItReadAgain() {
        HandoverMark oneMore = new HandoverMark(5, "2026-12-06 15:20:03.000", 0);
        Deque<HandoverMark> looks = looks(QUIET, oneMore, oneMore, oneMore);
        AtomicInteger reads = new AtomicInteger();

        StillRead.Result<Integer> r = StillRead.read(looks::removeFirst, reads::incrementAndGet, 5, () -> { });

        assertThat(r.value()).isEqualTo(2);
        assertThat(r.still()).isTrue();
    }

    @Test
    void aHandoverThatEndedDuringTheReadChangesTheMarkEvenWithTheSameCount() {
        HandoverMark later = new HandoverMark(4, "2026-12-06 15:20:04.000", 0);

        assertThat(QUIET.stillUntil(later)).isFalse();
        assertThat(QUIET.stillUntil(QUIET)).isTrue();
        assertThat(new HandoverMark(4, "2026-12-06 15:20:01.100", 1).stillUntil(
                new HandoverMark(4, "2026-12-06 15:20:01.100", 1))).as("a handover pending all along").isFalse();
    }

    @Test
    void whenUnitsNeverStopMovingTheLastReadIsReturnedAndSaysSo() {
        AtomicInteger n = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger pauses = new AtomicInteger();

        StillRead.Result<Integer> r = StillRead.read(() -> new HandoverMark(n.incrementAndGet(), "", 0),
                reads::incrementAndGet, 3, pauses::incrementAndGet);

        assertThat(r.still()).isFalse();
        assertThat(r.value()).isEqualTo(3);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(pauses).as("no pause after the last attempt").hasValue(2);
        assertThatThrownBy(() -> StillRead.read(() -> QUIET, () -> 1, 0, () -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
