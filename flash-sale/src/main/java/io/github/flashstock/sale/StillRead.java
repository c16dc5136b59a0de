package io.github.flashstock.sale;

import java.util.function.Supplier;

/**
 * A read of a drill's final state taken while no units move between Redis and the MySQL store. The stock view reads
 * one store after the other, and a handover (the allotment rebalancer keeps running after the sale) takes units out
 * of one store in one step and puts them into the other in a later one: a view read across those steps counts the
 * units in neither store, or in both. So the read is taken between two looks at the SKUs' handovers, and kept only
 * when neither look saw one pending and nothing changed between them; otherwise it is taken again.
 */
final class StillRead {

    private StillRead() {
    }

    /**
     * The SKUs' handovers at one moment: how many there are, when one last changed (the table's newest
     * {@code updated_at}, to the millisecond), how many are still pending.
     */
    record HandoverMark(long handovers, String lastChange, long pending) {

        /** Nothing was moving at this look, and nothing started or ended before the {@code later} one. */
        boolean stillUntil(HandoverMark later) {
            return pending == 0 && equals(later);
        }
    }

    /** A read and whether it was taken while nothing moved ({@code false}: the attempts ran out). */
    record Result<T>(T value, boolean still, int attempts) {
    }

    /**
     * Reads until a read falls between two looks at the handovers that saw nothing move, at most {@code attempts}
     * times, pausing between them; the last read is returned either way.
     */
    static <T> Result<T> read(Supplier<HandoverMark> look, Supplier<T> read, int attempts, Runnable pause) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        T value = null;
        for (int n = 1; n <= attempts; n++) {
            HandoverMark before = look.get();
            value = read.get();
            if (before.stillUntil(look.get())) {
                return new Result<>(value, true, n);
            }
            if (n < attempts) {
                pause.run();
            }
        }
        return new Result<>(value, false, attempts);
    }
}
