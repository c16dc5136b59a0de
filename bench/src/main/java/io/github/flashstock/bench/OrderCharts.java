package io.github.flashstock.bench;

import io.github.flashstock.sale.Charts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The SVG beside {@code bin/bench-order}'s report: per path, orders/s and p99 over each round's run; stock over time. */
final class OrderCharts {

    private OrderCharts() {
    }

    static String overTime(String title, Map<OrderBenchmark.OrderPath, List<OrderBenchmark.Run>> runs,
                           List<Charts.Series> stock) {
        List<Charts.Panel> panels = new ArrayList<>();
        for (Map.Entry<OrderBenchmark.OrderPath, List<OrderBenchmark.Run>> e : runs.entrySet()) {
            List<Charts.Series> rate = new ArrayList<>();
            List<Charts.Series> p99 = new ArrayList<>();
            int round = 1;
            for (OrderBenchmark.Run run : e.getValue()) {
                Charts.Series[] s = Charts.perSecond("round " + round++, run.result().doneAtNanos(),
                        run.result().latencyNanos());
                rate.add(s[0]);
                p99.add(s[1]);
            }
            String label = e.getKey().label;
            panels.add(new Charts.Panel(label + ": answers per second", "seconds into the run", "answers/s", rate));
            panels.add(new Charts.Panel(label + ": p99 latency", "seconds into the run", "ms", p99));
        }
        if (!stock.isEmpty()) {
            panels.add(new Charts.Panel("(d) the demo's mix: units available in Redis", "seconds into the run",
                    "units", stock));
        }
        return Charts.svg(title, panels, 2);
    }
}
