package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.seata.integration.tx.api.interceptor.ActionContextUtil;
import org.junit.jupiter.api.Test;

/** Lines are merged and checked once, and travel through Seata's action context unchanged. */
class ReservationLinesTest {

    @Test
    void mergesLinesOfOneSkuInOrderOfFirstAppearance() {
        ReservationLines lines = ReservationLines.of(
                List.of(new StockLine("b", 1), new StockLine("a", 2), new StockLine("b", 3)), 10, 10);

        assertThat(lines.lines()).containsExactly(new StockLine("b", 4), new StockLine("a", 2));
    }

    @Test
    void checksTheLineCountAsSentAndTheQuantityPerSkuAsMerged() {
        assertThatThrownBy(() -> ReservationLines.of(List.of(new StockLine("a", 1), new StockLine("a", 1),
                new StockLine("a", 1)), 2, 10))
                .isInstanceOf(ReservationLines.InvalidLines.class).hasMessageContaining("at most 2 lines");
        assertThatThrownBy(() -> ReservationLines.of(List.of(new StockLine("a", 6), new StockLine("a", 5)), 10, 10))
                .isInstanceOf(ReservationLines.InvalidLines.class).hasMessageContaining("quantity of a is 11");
        assertThatThrownBy(() -> ReservationLines.of(List.of(), 10, 10))
                .isInstanceOf(ReservationLines.InvalidLines.class);
    }

    @Test
    void quantitiesThatWouldOverflowAnIntAreRefusedNotWrapped() {
        assertThatThrownBy(() -> ReservationLines.of(List.of(new StockLine("a", Integer.MAX_VALUE),
                new StockLine("a", Integer.MAX_VALUE)), 10, Integer.MAX_VALUE))
                .isInstanceOf(ReservationLines.InvalidLines.class).hasMessageContaining("4294967294");
    }

    @Test
    void seataKeepsTheEncodedLinesInTheActionContext() {
        ReservationLines lines = ReservationLines.of(List.of(new StockLine("sku-1", 2), new StockLine("sku.2_x", 1)),
                10, 10);

        Map<String, Object> context = ActionContextUtil.fetchContextFromObject(lines);

        assertThat(context).containsExactly(Map.entry("lines", "sku-1*2|sku.2_x*1"));
        assertThat(ReservationLines.decode((String) context.get("lines")).lines()).isEqualTo(lines.lines());
    }

    @Test
    void anyMergedLinesSurviveTheRoundTrip() {
        Random random = new Random(20261130);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
        for (int run = 0; run < 2_000; run++) {
            List<StockLine> requested = new ArrayList<>();
            Map<String, Long> expected = new LinkedHashMap<>();
            for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
                StringBuilder sku = new StringBuilder();
                for (int c = 0, len = 1 + random.nextInt(3); c < len; c++) {
                    sku.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                int quantity = 1 + random.nextInt(50);
                requested.add(new StockLine(sku.toString(), quantity));
                expected.merge(sku.toString(), (long) quantity, Long::sum);
            }

            ReservationLines lines = ReservationLines.of(requested, 8, 400);

            assertThat(lines.lines()).extracting(StockLine::skuId).containsExactlyElementsOf(expected.keySet());
            assertThat(lines.lines()).extracting(l -> (long) l.quantity()).containsExactlyElementsOf(expected.values());
            assertThat(ReservationLines.decode(lines.encoded()).lines()).isEqualTo(lines.lines());
        }
    }
}
