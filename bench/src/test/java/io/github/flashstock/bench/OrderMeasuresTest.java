package io.github.flashstock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What bin/bench-order reads and computes: CPU ticks from /proc, percentiles, orders per second. */
class OrderMeasuresTest {

    @Test
    void aBusyProcessShowsCpuTicksAndTheMachineCountsThemToo() {
        long pid = ProcessHandle.current().pid();
        ProcCpu.Meter meter = new ProcCpu.Meter(Map.of("me", List.of(pid)));
        meter.start();
        // 300 ms of this thread's own CPU time (however long a loaded machine takes to give it), at most 20 s
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long giveUp = System.nanoTime() + 20_000_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() - cpuStart < 300_000_000L && System.nanoTime() < giveUp) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        Map<String, Double> used = meter.stop();
        assertThat(x).isNotNegative();
        // the process's ticks hold at least that thread's time (ticks are 10 ms: some slack), the machine's as well
        assertThat(used.get("me")).isGreaterThanOrEqualTo(250.0);
        assertThat(used.get(ProcCpu.MACHINE)).isGreaterThanOrEqualTo(used.get("me") * 0.5);
        assertThat(ProcCpu.ticks(Long.MAX_VALUE)).as("a process that does not exist").isZero();
        assertThat(ProcCpu.jvmOptions(pid)).doesNotContain("-cp");
    }

    @Test
    void percentilesAreNearestRankAndRatesCountTheExpectedAnswers() {
        long[] latencies = new long[100];
        int[] status = new int[100];
        for (int i = 0; i < 100; i++) {
            latencies[i] = (100 - i) * 1_000_000L; // 100 ms down to 1 ms
            status[i] = i < 90 ? 201 : 503;
        }
        OrderLoad.Result result = new OrderLoad.Result(status, latencies, new long[100], 2_000_000_000L);

        assertThat(result.percentileMillis(0.50)).isEqualTo(50.0);
        assertThat(result.percentileMillis(0.99)).isEqualTo(99.0);
        assertThat(result.percentileMillis(1.0)).isEqualTo(100.0);
        assertThat(result.perSecond(201)).isEqualTo(45.0);
        assertThat(result.statuses()).containsExactly(Map.entry(201, 90), Map.entry(503, 10));

        OrderBenchmark.Run run = new OrderBenchmark.Run(OrderBenchmark.OrderPath.COMMIT, result,
                Map.of("TC", 180.0), new MariaDbCounters.Delta(225, 135));
        assertThat(run.served()).isEqualTo(90);
        assertThat(run.cpuPerThousand("TC")).isEqualTo(2.0);
        // per order served, not per request answered
        assertThat(run.commitsPerOrder()).isEqualTo(2.5);
        assertThat(run.logWritesPerOrder()).isEqualTo(1.5);
    }
}
