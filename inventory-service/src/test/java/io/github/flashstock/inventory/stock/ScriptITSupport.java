package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The script wrappers on the devstack's Redis for each *ScriptIT class, and the stock invariants to check. */
@DevStackTest(Component.REDIS)
public abstract class ScriptITSupport {

    protected static RedisScripts scripts;

    @BeforeAll
    static void connect(Endpoints endpoints) {
        scripts = new RedisScripts(endpoints);
    }

    @AfterAll
    static void close() {
        scripts.close();
    }

    /**
     * The stock model's invariants (docs/design.md, "Stock model"): conservation, nothing negative, and the
     * segments add up to the SKU.
     */
    protected static void assertConserved(RedisStock s) {
        assertThat(s.available() + s.reserved() + s.sold()).as("available + reserved + sold").isEqualTo(s.stocked());
        assertThat(s.available()).isNotNegative();
        assertThat(s.reserved()).isNotNegative();
        assertThat(s.sold()).isNotNegative();
        assertThat(s.segmentsView().stream().mapToLong(RedisStock.Segment::available).sum()).as("segments available")
                .isEqualTo(s.available());
        assertThat(s.segmentsView().stream().mapToLong(RedisStock.Segment::reserved).sum()).as("segments reserved")
                .isEqualTo(s.reserved());
        assertThat(s.segmentsView()).allSatisfy(seg -> {
            assertThat(seg.available()).isNotNegative();
            assertThat(seg.reserved()).isNotNegative();
        });
    }

    /** A SKU of 10 units with a Try of 3 by alice under (xid, order-1). */
    protected record Tried(String sku, String xid) {
        public static Tried threeOfTen() {
            String sku = scripts.skuWithAvailable(10);
            String xid = RedisScripts.xid();
            scripts.tryScript.run(xid, "order-1", 1, "alice", RedisScripts.lines(sku, 3));
            return new Tried(sku, xid);
        }
    }
}
