package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChaosCliTest {

    private static final FlashSale.Purchase BUYER = new FlashSale.Purchase("u1", Map.of("hot", 1));

    private static DrillRunner.ChaosRun run() {
        ChaosSchedule schedule = ChaosSchedule.draw(3, Duration.ofMinutes(1));
        List<ChaosFaults.Event> events = schedule.steps().stream()
                .map(s -> new ChaosFaults.Event(s.at(), s.ends(), s, "healed")).toList();
        List<FlashSale.Timed> answers = List.of(
                new FlashSale.Timed(500_000_000L, new FlashSale.Answer(BUYER, 201, "o-1", "", 1_000_000L, 1)),
                new FlashSale.Timed(1_500_000_000L, new FlashSale.Answer(BUYER, 503, "o-2", "inventory-unavailable",
                        1_000_000L, 1)),
                new FlashSale.Timed(1_700_000_000L, new FlashSale.Answer(BUYER, 409, "o-3", "insufficient-stock",
                        1_000_000L, 1)));
        DrillReport.SkuOutcome sku = new DrillReport.SkuOutcome("hot", new StockCounts(10, 10, 9, 0, 1, 1, 0, 0, 0,
                0), 1);
        DrillReport report = new DrillReport(Drill.CHAOS, 3, Map.of("201", 1, "503 inventory-unavailable", 1,
                "409 insufficient-stock", 1), 1, 0, 0, List.of(), 0, List.of(), List.of(sku), 0, 0, List.of(),
                List.of(), List.of(), "chaos", Duration.ZERO, Duration.ofSeconds(5), true);
        return new DrillRunner.ChaosRun(schedule, events, Map.of("KILL TC", 1), answers, report);
    }

    @Test
    void theTableLineCountsEveryAnswerByStatusAndNamesTheSeed() {
        String line = ChaosCli.tableLine(run());
        assertThat(line).startsWith("| 3 | 1.0 | ").contains("| 3 | 1 / 0 / 1 / 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 / 0 | clean |");
        assertThat(line.split("\\|")).hasSameSizeAs(ChaosCli.TABLE_HEAD.split("\\|"));
    }

    @Test
    void theChartDrawsTheOrdersTheAvailabilityAndEveryFaultsLane() {
        String svg = ChaosCli.chart(run());
        assertThat(svg).contains("<svg").contains("availability").contains("faults under way");
        run().schedule().steps().stream().map(s -> s.target().description())
                .forEach(target -> assertThat(svg).contains(target));
    }
}
