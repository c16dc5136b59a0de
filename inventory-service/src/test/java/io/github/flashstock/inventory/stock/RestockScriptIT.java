package io.github.flashstock.inventory.stock;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code lua/restock.lua}: every reply code and its replay. */
class RestockScriptIT extends ScriptITSupport {

    @Test
    void addsUnitsOncePerOperation() {
        String sku = scripts.sku(10, 0, 4);

        RestockOutcome first = scripts.restock.run(sku, 6, "op-1", RETENTION);
        RestockOutcome replay = scripts.restock.run(sku, 6, "op-1", RETENTION);

        assertThat(first).isEqualTo(new RestockOutcome.Restocked(16, 16));
        assertThat(replay).isEqualTo(new RestockOutcome.AlreadyApplied(16, 16));
        RedisStock s = scripts.stock(sku);
        assertThat(s.stocked()).isEqualTo(16);
        assertConserved(s);
    }

    @Test
    void refusesAnUnknownSku() {
        assertThat(scripts.restock.run("sku-" + UUID.randomUUID(), 5, "op-1", RETENTION))
                .isEqualTo(new RestockOutcome.UnknownSku());
    }
}
