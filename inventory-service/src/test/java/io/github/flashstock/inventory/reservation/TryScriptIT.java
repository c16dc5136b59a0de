package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.stock.RedisScripts;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisSystemException;

class TryScriptIT extends ScriptITSupport {

    @Test
    void reservesWhenEnoughIsAvailable() {
        String sku = scripts.skuWithAvailable(10);

        TryOutcome outcome = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(sku, 3));

        assertThat(outcome).isEqualTo(new TryOutcome.Reserved());
        RedisStock stock = scripts.stock(sku);
        assertThat(stock.unsold()).isEqualTo(10);
        assertThat(stock.reserved()).isEqualTo(3);
        assertThat(stock.sold()).isZero();
        assertThat(stock.available()).isEqualTo(7);
        assertThat(scripts.reader.heldBy(sku, "alice")).isEqualTo(3);
    }

    @Test
    void aReplayDeductsNothingMoreEvenFromAnotherBranch() {
        String sku = scripts.skuWithAvailable(10);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "alice", lines(sku, 3));

        // the same reservation again: a retried HTTP call arrives as branch 2
        TryOutcome replay = scripts.tryScript.run(xid, "order-1", 2, "alice", lines(sku, 3));

        assertThat(replay).isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(scripts.stock(sku).reserved()).isEqualTo(3);
        assertThat(scripts.reader.heldBy(sku, "alice")).isEqualTo(3);
    }

    @Test
    void refusesWhenTooLittleIsAvailableAndNamesTheLine() {
        String sku = scripts.skuWithAvailable(2);

        TryOutcome outcome = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(sku, 3));

        assertThat(outcome).isEqualTo(new TryOutcome.InsufficientStock(sku, 3, 2));
        assertThat(scripts.stock(sku).reserved()).isZero();
    }

    @Test
    void aMultiSkuTryWhoseSecondSkuIsShortLeavesTheFirstUntouched() {
        String plenty = scripts.skuWithAvailable(10);
        String short_ = scripts.skuWithAvailable(1);
        String xid = xid();

        TryOutcome outcome = scripts.tryScript.run(xid, "order-1", 1, "alice", lines(plenty, 2, short_, 2));

        assertThat(outcome).isEqualTo(new TryOutcome.InsufficientStock(short_, 2, 1));
        assertThat(scripts.stock(plenty).reserved()).isZero();
        assertThat(scripts.stock(plenty).sold()).isZero();
        assertThat(scripts.reader.heldBy(plenty, "alice")).isZero();
        assertThat(scripts.reader.fenceState(plenty, xid, "order-1")).isEmpty();
    }

    /**
     * A buyer at the limit is refused for the limit even when the SKU is short too: the Try never falls through to the
     * MySQL store's allotment on a refusal for want of stock (docs/design.md, "One buyer count").
     */
    @Test
    void refusesForTheLimitBeforeLookingAtTheStock() {
        String sku = scripts.sku(2, 2, 1);
        scripts.tryScript.run(xid(), "order-0", 1, "ada", lines(sku, 2));

        assertThat(scripts.tryScript.run(xid(), "order-1", 1, "ada", lines(sku, 1)))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded(sku, 1, 2, 2));
        assertThat(scripts.tryScript.run(xid(), "order-2", 1, "bob", lines(sku, 1)))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 1, 0));
    }

    /**
     * Units marked as on their way into Redis (a handover between its MySQL step and its Redis step, moving.lua) come
     * with a refusal for stock, until they arrive or their mark's deadline passes; peek.lua leaves such a SKU to the
     * Try.
     */
    @Test
    void aRefusalForStockCarriesTheUnitsOnTheirWayIn() {
        String sku = scripts.skuWithAvailable(1);
        io.github.flashstock.inventory.allotment.HandoverScript handover =
                new io.github.flashstock.inventory.allotment.HandoverScript(scripts.redis);
        PeekScript peek = new PeekScript(scripts.redis);
        assertThat(peek.available(sku, xid(), "order-0")).hasValue(1);

        handover.markMovingIn(sku, "op-1", 3, java.time.Duration.ofMinutes(1));
        handover.markMovingIn(sku, "op-2", 2, java.time.Duration.ofMillis(300));

        TryOutcome refused = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(sku, 4));
        assertThat(refused).isEqualTo(new TryOutcome.InsufficientStock(sku, 4, 1, 5));
        assertThat(((TryOutcome.InsufficientStock) refused).coveredByUnitsMovingIn()).isTrue();
        assertThat(peek.available(sku, xid(), "order-1")).as("only the Try can tell").isEmpty();
        // the short mark's deadline passes: it counts no more
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                scripts.tryScript.run(xid(), "order-2", 1, "alice", lines(sku, 5)))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 5, 1, 3)));
        // the handover's Redis step (or one that moved nothing) takes the mark away
        handover.unmarkMovingIn(sku, "op-1");
        assertThat(scripts.tryScript.run(xid(), "order-3", 1, "alice", lines(sku, 2)))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 2, 1, 0));
        assertThat(peek.available(sku, xid(), "order-3")).hasValue(1);
        assertThat(scripts.stock(sku).reserved()).isZero();
    }

    @Test
    void aLimitRefusalLeavesEverythingUntouched() {
        String free = scripts.skuWithAvailable(10);
        String limited = scripts.sku(10, 2, 1);
        scripts.tryScript.run(xid(), "order-0", 1, "alice", lines(limited, 1));
        String xid = xid();

        TryOutcome outcome = scripts.tryScript.run(xid, "order-1", 1, "alice", lines(free, 1, limited, 2));

        assertThat(outcome).isEqualTo(new TryOutcome.PurchaseLimitExceeded(limited, 2, 2, 1));
        assertThat(scripts.stock(free).reserved()).isZero();
        assertThat(scripts.stock(limited).reserved()).isEqualTo(1);
        assertThat(scripts.reader.heldBy(limited, "alice")).isEqualTo(1);
        assertThat(scripts.reader.fenceState(free, xid, "order-1")).isEmpty();
        // another user is not limited by alice's purchases
        assertThat(scripts.tryScript.run(xid(), "order-2", 1, "bob", lines(limited, 2)))
                .isEqualTo(new TryOutcome.Reserved());
    }

    @Test
    void decidesSeveralReservationsInOneCallOneAfterTheOther() {
        // Given 5 units
        String sku = scripts.skuWithAvailable(5);
        String xid = xid();

        // When one call carries: 3 units, 3 more, a replay of the first, then 2
        List<TryOutcome> outcomes = scripts.tryScript.run(List.of(
                new TryRequest(xid, "order-1", 1, "alice", lines(sku, 3)),
                new TryRequest(xid(), "order-2", 2, "bob", lines(sku, 3)),
                new TryRequest(xid, "order-1", 3, "alice", lines(sku, 3)),
                new TryRequest(xid(), "order-3", 4, "carol", lines(sku, 2))));

        // Then each is decided on what the ones before it left, and the replay deducts nothing
        assertThat(outcomes).containsExactly(new TryOutcome.Reserved(), new TryOutcome.InsufficientStock(sku, 3, 2),
                new TryOutcome.AlreadyReserved(), new TryOutcome.Reserved());
        RedisStock stock = scripts.stock(sku);
        assertThat(stock.reserved()).isEqualTo(5);
        assertConserved(stock);
        assertThat(scripts.reader.heldBy(sku, "bob")).isZero();
    }

    @Test
    void aRefusedReservationInACallLeavesItsNeighboursReservedAndItselfUntouched() {
        // Given a limit of 3 per buyer, and two SKUs
        String limited = scripts.sku(10, 3, 1);
        String other = scripts.skuWithAvailable(10);
        String refusedXid = xid();

        // When alice's second reservation in the same call would pass her limit, with a line of the other SKU first
        List<TryOutcome> outcomes = scripts.tryScript.run(List.of(
                new TryRequest(xid(), "order-1", 1, "alice", lines(limited, 2)),
                new TryRequest(refusedXid, "order-2", 2, "alice", lines(other, 1, limited, 2)),
                new TryRequest(xid(), "order-3", 3, "bob", lines(other, 4, limited, 3))));

        // Then the limit sees the first reservation, and the refused one changed nothing on either SKU
        assertThat(outcomes).containsExactly(new TryOutcome.Reserved(),
                new TryOutcome.PurchaseLimitExceeded(limited, 2, 3, 2), new TryOutcome.Reserved());
        assertThat(scripts.stock(limited).reserved()).isEqualTo(5);
        assertThat(scripts.stock(other).reserved()).isEqualTo(4);
        assertThat(scripts.reader.heldBy(limited, "alice")).isEqualTo(2);
        assertThat(scripts.reader.heldBy(other, "alice")).isZero();
        assertThat(scripts.reader.fenceState(other, refusedXid, "order-2")).isEmpty();
    }

    @Test
    void anErrorWhileDecidingACallLeavesRedisAsItWas() {
        // Given a good SKU, and a SKU whose segment holds a corrupt total
        String good = scripts.skuWithAvailable(10);
        String corrupt = scripts.skuWithAvailable(10);
        scripts.redis.opsForHash().put(StockKeys.segment(corrupt, 0), "available", "not-a-number");
        String goodXid = xid();

        // When one call carries a Try of the good SKU and then one of the corrupt SKU
        assertThatThrownBy(() -> scripts.tryScript.run(List.of(
                new TryRequest(goodXid, "order-1", 1, "alice", lines(good, 3)),
                new TryRequest(xid(), "order-2", 2, "bob", lines(corrupt, 1)))))
                // an error answer, which TryCoalescer tells apart from Redis out of reach
                .isInstanceOf(RedisSystemException.class);

        // Then the first Try left nothing behind either: no lock, no buyer count, no fence record, no open entry
        RedisStock stock = scripts.stock(good);
        assertThat(stock.reserved()).isZero();
        assertThat(scripts.reader.heldBy(good, "alice")).isZero();
        assertThat(scripts.reader.fenceState(good, goodXid, "order-1")).isEmpty();
        assertThat(scripts.redis.opsForSet().size(StockKeys.open(good))).isZero();
    }

    @Test
    void refusesTryAfterCancelArrivedFirstAndLocksNothing() {
        String sku = scripts.skuWithAvailable(10);
        String xid = xid();
        assertThat(scripts.cancel.run(sku, xid, "order-1", RedisScripts.RETENTION))
                .isEqualTo(new PhaseOutcome.NoRecord());

        TryOutcome late = scripts.tryScript.run(xid, "order-1", 1, "alice", lines(sku, 3));

        assertThat(late).isEqualTo(new TryOutcome.ReservationCancelled(sku));
        assertThat(scripts.stock(sku).reserved()).isZero();
        assertThat(scripts.reader.heldBy(sku, "alice")).isZero();
    }

    @Test
    void reservesAfterRedisForgotItsScripts() {
        // Given a SKU, and a Redis whose script cache was emptied (a restart or a failover does that)
        String sku = scripts.skuWithAvailable(10);
        scripts.redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) c -> {
            c.scriptingCommands().scriptFlush();
            return null;
        });

        // When a Try arrives, Then EVALSHA meets NOSCRIPT, the script is sent again, and the Try reserves
        TryOutcome outcome = scripts.tryScript.run(RedisScripts.xid(), "order-1", 1, "alice",
                RedisScripts.lines(sku, 2));

        assertThat(outcome).isInstanceOf(TryOutcome.Reserved.class);
        assertThat(scripts.stock(sku).reserved()).isEqualTo(2);
    }

    @Test
    void reportsAnUnknownSku() {
        String known = scripts.skuWithAvailable(10);

        TryOutcome outcome = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(known, 1, "never-created", 1));

        assertThat(outcome).isEqualTo(new TryOutcome.UnknownSku("never-created"));
        assertThat(scripts.stock(known).reserved()).isZero();
    }

    @Test
    void refusesASkuBuiltOnAnotherRedisProcessAndTakesNothingOfTheReservation() {
        String current = scripts.skuWithAvailable(10);
        String stale = scripts.skuWithAvailable(10);
        // what a restart or a failover leaves: the SKU's epoch is no longer this server's run id
        scripts.redis.opsForHash().put(StockKeys.stock(stale), "epoch", "another-redis-process");

        TryOutcome outcome = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(current, 1, stale, 1));

        assertThat(outcome).isEqualTo(new TryOutcome.StaleSku(stale));
        assertThat(scripts.stock(current).reserved()).isZero();
        assertThat(scripts.stock(stale).available()).isEqualTo(10);
    }

    @Test
    void fallsThroughToOtherSegmentsAndSplitsALineOverThem() {
        // 4 segments of 3 units: no single segment can serve 7
        String sku = scripts.sku(12, 0, 4);

        TryOutcome outcome = scripts.tryScript.run(xid(), "order-1", 1, "alice", lines(sku, 7));

        assertThat(outcome).isEqualTo(new TryOutcome.Reserved());
        RedisStock stock = scripts.stock(sku);
        assertThat(stock.reserved()).isEqualTo(7);
        Map<Integer, Long> lockedBySegment = stock.segmentsView().stream()
                .collect(Collectors.toMap(RedisStock.Segment::index, RedisStock.Segment::reserved));
        assertThat(lockedBySegment.values()).filteredOn(v -> v > 0).hasSize(3);
        assertThat(lockedBySegment.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(7);
        assertConserved(stock);

        // the remaining 5 are still all reachable, wherever the next search starts
        assertThat(scripts.tryScript.run(xid(), "order-2", 1, "bob", lines(sku, 5))).isEqualTo(new TryOutcome.Reserved());
        assertThat(scripts.tryScript.run(xid(), "order-3", 1, "carol", lines(sku, 1)))
                .isEqualTo(new TryOutcome.InsufficientStock(sku, 1, 0));
    }
}
