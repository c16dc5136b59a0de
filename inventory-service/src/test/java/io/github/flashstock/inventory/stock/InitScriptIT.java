package io.github.flashstock.inventory.stock;

import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code lua/init.lua}: every reply code and its replay. */
class InitScriptIT extends ScriptITSupport {

    @Test
    void createsStockSplitEvenlyOverSegments() {
        String sku = "sku-" + UUID.randomUUID();

        InitOutcome outcome = scripts.init.run(sku, 10, 4, 2, 3);

        assertThat(outcome).isEqualTo(new InitOutcome.Created(10, 0, 4, 3));
        RedisStock s = scripts.stock(sku);
        assertThat(s.segmentsView()).extracting(RedisStock.Segment::available).containsExactly(4L, 3L, 3L);
        assertThat(s.limit()).isEqualTo(2);
        assertThat(s.stocked()).isEqualTo(14);
        assertConserved(s);
    }

    @Test
    void neverOverwritesLiveStock() {
        String sku = scripts.skuWithAvailable(10);
        scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(sku, 3));

        InitOutcome again = scripts.init.run(sku, 500, 0, 0, 1);

        assertThat(again).isEqualTo(new InitOutcome.AlreadyExists(7, 3, 0, 1));
        assertThat(scripts.stock(sku).unsold()).isEqualTo(10);
        assertThat(scripts.stock(sku).reserved()).isEqualTo(3);
    }
}
