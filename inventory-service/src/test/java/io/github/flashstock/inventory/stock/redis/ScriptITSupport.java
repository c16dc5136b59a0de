package io.github.flashstock.inventory.stock.redis;

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

    /** The stock model's invariants (docs/design.md, "The inventory service"): conservation, no negative lock or availability; segments add up to the SKU. */
    protected static void assertConserved(RedisStock s) {
        assertThat(s.total() + s.sold() - s.locked()).as("total + sold - locked").isEqualTo(s.stocked());
        assertThat(s.locked()).isNotNegative();
        assertThat(s.available()).isNotNegative();
        assertThat(s.segmentsView().stream().mapToLong(RedisStock.Segment::total).sum()).as("segment totals")
                .isEqualTo(s.total());
        assertThat(s.segmentsView().stream().mapToLong(RedisStock.Segment::locked).sum()).as("segment locks")
                .isEqualTo(s.locked());
        assertThat(s.segmentsView()).allSatisfy(seg -> assertThat(seg.locked()).isLessThanOrEqualTo(seg.total()));
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
