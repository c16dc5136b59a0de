package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;
import org.junit.jupiter.api.Test;

class TryRequestTest {

    @Test
    void takesLinesOfDistinctSkus() {
        TryRequest request = new TryRequest("xid", "order-1", 1, "alice",
                List.of(new StockLine("a", 2), new StockLine("b", 1)));

        assertThat(request.lines()).containsExactly(new StockLine("a", 2), new StockLine("b", 1));
    }

    @Test
    void refusesUnmergedLinesBecauseTheScriptWouldCheckEachAlone() {
        assertThatThrownBy(() -> new TryRequest("xid", "order-1", 1, "alice",
                List.of(new StockLine("a", 2), new StockLine("b", 1), new StockLine("a", 3))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("merged");
    }

    @Test
    void needsAtLeastOneLine() {
        assertThatThrownBy(() -> new TryRequest("xid", "order-1", 1, "alice", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
