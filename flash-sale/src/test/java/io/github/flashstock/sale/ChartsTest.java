package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChartsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void answersAreCountedInTheSecondTheyCameAndEachSecondHasItsOwnP99() {
        // second 0: three answers of 10, 20 and 300 ms; second 1: none; second 2: one of 50 ms, and the run ends
        // right after it: that sliver of a second has no rate
        long[] doneAt = {SECOND / 10, SECOND / 2, SECOND - 1, 2 * SECOND + 5};
        long[] latency = {10 * MS, 20 * MS, 300 * MS, 50 * MS};

        Charts.Series[] s = Charts.perSecond("run", doneAt, latency);

        assertThat(s[0].x()).containsExactly(0, 1);
        assertThat(s[0].y()).containsExactly(3, 0);
        // a second without answers has no latency point, rather than a made-up zero
        assertThat(s[1].x()).containsExactly(0, 2);
        assertThat(s[1].y()).containsExactly(300, 50);
    }

    @Test
    void aLastSecondTheRunLastedMostOfIsScaledToAFullSecond() {
        // one answer in second 0, three in the first 0.75 s of second 1
        long[] doneAt = {SECOND / 2, SECOND + SECOND / 4, SECOND + SECOND / 2, SECOND + 3 * SECOND / 4};

        Charts.Series[] s = Charts.perSecond("run", doneAt, new long[] {MS, MS, MS, MS});

        assertThat(s[0].x()).containsExactly(0, 1);
        assertThat(s[0].y()).containsExactly(1, 4);
    }

    @Test
    void theDocumentIsAnSvgWithEveryPanelsTitleAndEveryLinesName() {
        Charts.Series a = new Charts.Series("round 1", new double[] {0, 1, 2}, new double[] {5, 7, 6});
        Charts.Series b = new Charts.Series("round 1", new double[] {0, 1}, new double[] {4, 4});

        String svg = Charts.svg("a title", List.of(new Charts.Panel("orders per second", "s", "orders/s",
                List.of(a, b)), new Charts.Panel("stock", "s", "units", List.of())), 2);

        assertThat(svg).startsWith("<?xml").contains("<svg ", "</svg>").contains("a title", "orders per second", "stock", "round 1",
                "round 1 (2)");
    }

    @Test
    void aSeriesNeedsAsManyYAsX() {
        assertThatThrownBy(() -> new Charts.Series("bad", new double[] {1, 2}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
