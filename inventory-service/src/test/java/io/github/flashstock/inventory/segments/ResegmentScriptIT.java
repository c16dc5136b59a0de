package io.github.flashstock.inventory.segments;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code lua/resegment.lua}: every reply code and its replay. */
class ResegmentScriptIT extends ScriptITSupport {

    @Test
    void movesOnlyAvailableUnitsAndKeepsEveryOpenReservationConfirmable() {
        // Given 100 units in 4 segments and 10 open reservations of 3 units spread over them
        String sku = scripts.sku(100, 0, 4);
        List<String> xids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String xid = xid();
            xids.add(xid);
            assertThat(scripts.tryScript.run(xid, "order-" + i, i, "user-" + i, lines(sku, 3)))
                    .isEqualTo(new TryOutcome.Reserved());
        }

        // When the count changes 4 -> 8 -> 1 -> 3 while they are open
        assertThat(scripts.resegment.run(sku, 8)).isEqualTo(new ResegmentOutcome.Resegmented(4, 8, 70));
        assertConserved(scripts.stock(sku));
        assertThat(scripts.resegment.run(sku, 1)).isEqualTo(new ResegmentOutcome.Resegmented(8, 1, 70));
        RedisStock narrowed = scripts.stock(sku);
        assertConserved(narrowed);
        assertThat(narrowed.segmentsView()).filteredOn(seg -> seg.index() >= 1)
                .allSatisfy(seg -> assertThat(seg.available()).isZero());
        assertThat(scripts.resegment.run(sku, 3)).isEqualTo(new ResegmentOutcome.Resegmented(1, 3, 70));
        assertThat(scripts.resegment.run(sku, 3)).isEqualTo(new ResegmentOutcome.Unchanged(3));

        // Then all 70 available units can still be reserved, and every open reservation ends correctly
        RedisStock s = scripts.stock(sku);
        assertConserved(s);
        assertThat(s.available()).isEqualTo(70);
        assertThat(s.reserved()).isEqualTo(30);
        for (int i = 0; i < 10; i++) {
            PhaseOutcome end = i % 2 == 0
                    ? scripts.confirm.run(sku, xids.get(i), "order-" + i, RETENTION, 3, "user-" + i)
                    : scripts.cancel.run(sku, xids.get(i), "order-" + i, RETENTION);
            assertThat(end).isEqualTo(new PhaseOutcome.Applied(3));
        }
        RedisStock after = scripts.stock(sku);
        assertConserved(after);
        assertThat(after.reserved()).isZero();
        assertThat(after.sold()).isEqualTo(15);
        assertThat(after.unsold()).isEqualTo(85);
        assertThat(scripts.tryScript.run(xid(), "order-x", 1, "zed", lines(sku, 85)))
                .isEqualTo(new TryOutcome.Reserved());
    }

    @Test
    void refusesAnUnknownSku() {
        assertThat(scripts.resegment.run("sku-" + UUID.randomUUID(), 2))
                .isEqualTo(new ResegmentOutcome.UnknownSku());
    }
}
