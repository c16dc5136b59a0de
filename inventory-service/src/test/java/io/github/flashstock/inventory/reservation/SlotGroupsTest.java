package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

class SlotGroupsTest {

    private static final List<StockLine> LINES = List.of(new StockLine("a", 1), new StockLine("b", 2),
            new StockLine("c", 3), new StockLine("d", 4), new StockLine("e", 5), new StockLine("f", 6));

    private static int slot(StockLine line) {
        return ClusterSlotHashUtil.calculateSlot(StockKeys.stock(line.skuId()));
    }

    @Test
    void aStandaloneRedisRunsEveryLineInOneScript() {
        assertThat(new SlotGroups(false).of(LINES)).containsExactly(LINES);
    }

    @Test
    void aClusterGetsOneGroupPerSlotInOrderOfFirstAppearanceLosingNoLine() {
        List<List<StockLine>> groups = new SlotGroups(true).of(LINES);

        assertThat(groups).allSatisfy(group ->
                assertThat(group.stream().map(SlotGroupsTest::slot).distinct()).hasSize(1));
        assertThat(groups.stream().map(g -> slot(g.get(0)))).doesNotHaveDuplicates();
        List<StockLine> flattened = new ArrayList<>();
        groups.forEach(flattened::addAll);
        assertThat(flattened).containsExactlyInAnyOrderElementsOf(LINES);
        assertThat(groups.get(0).get(0)).isEqualTo(LINES.get(0));
        assertThat(groups).hasSize((int) LINES.stream().map(SlotGroupsTest::slot).distinct().count());
    }

    @Test
    void oneLineIsOneGroupEverywhere() {
        List<StockLine> one = List.of(new StockLine("x", 1));

        assertThat(new SlotGroups(true).of(one)).containsExactly(one);
    }
}
