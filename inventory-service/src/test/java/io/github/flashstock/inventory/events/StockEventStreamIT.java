package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.stock.RedisScripts;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The SKUs' event streams on the devstack's Redis: each phase's script appends its event in the same call as the
 * stock it moves, and the forwarders' consumer group hands every entry to exactly one of them, keeps it until
 * acknowledged, and lets another take over what a dead one left.
 */
class StockEventStreamIT extends ScriptITSupport {

    private static StockEventStream forwarder(String name) {
        return new StockEventStream(scripts.redis, StockEventStream.GROUP, name);
    }

    private static long length(String sku) {
        return scripts.redis.opsForStream().size(StockKeys.events(sku));
    }

    @Test
    void everyPhaseThatMovesStockAppendsItsEventInTheSameCall() {
        String sku = scripts.skuWithAvailable(10);
        String xid = RedisScripts.xid();
        scripts.tryScript.run(xid, "order-1", 7, "alice", RedisScripts.lines(sku, 3));
        scripts.tryScript.run(xid, "order-2", 8, "bob", RedisScripts.lines(sku, 2));
        // a replay moves nothing, so it writes no event
        scripts.tryScript.run(xid, "order-1", 9, "alice", RedisScripts.lines(sku, 3));
        scripts.confirm.run(sku, xid, "order-1", RedisScripts.RETENTION, 3, "alice");
        scripts.cancel.run(sku, xid, "order-2", RedisScripts.RETENTION);
        scripts.confirm.run(sku, xid, "order-1", RedisScripts.RETENTION, 3, "alice");
        // an empty rollback (no Try) writes a tombstone, not an event
        assertThat(scripts.cancel.run(sku, xid, "order-3", RedisScripts.RETENTION))
                .isInstanceOf(PhaseOutcome.NoRecord.class);

        List<StockEventStream.Entry> entries = forwarder("a").next(sku, 100);

        List<StockEventMessage> events = entries.stream().flatMap(e -> StockEventForwarder.events(e).stream()).toList();
        assertThat(events).extracting(e -> e.phase() + " " + e.reservationId() + " " + e.branchId() + " "
                        + e.quantity() + " " + e.userId() + " " + e.skuId())
                .containsExactly("TRIED order-1 7 3 alice " + sku, "TRIED order-2 8 2 bob " + sku,
                        "CONFIRMED order-1 7 3 alice " + sku, "CANCELLED order-2 8 2 bob " + sku);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.xid()).isEqualTo(xid);
            assertThat(e.at()).isPositive();
        });
    }

    @Test
    void aCoalescedCallWritesOneEntryPerSkuHoldingEveryReservationsEvent() {
        String hot = scripts.skuWithAvailable(10);
        String other = scripts.skuWithAvailable(10);
        String xid = RedisScripts.xid();
        scripts.tryScript.run(List.of(
                new io.github.flashstock.inventory.reservation.TryRequest(xid, "o-1", 1, "u1",
                        RedisScripts.lines(hot, 1, other, 2)),
                new io.github.flashstock.inventory.reservation.TryRequest(xid, "o-2", 2, "u2",
                        RedisScripts.lines(hot, 20)),
                new io.github.flashstock.inventory.reservation.TryRequest(xid, "o-3", 3, "u3",
                        RedisScripts.lines(hot, 4))));

        assertThat(length(hot)).isEqualTo(1);
        assertThat(length(other)).isEqualTo(1);
        assertThat(StockEventForwarder.events(forwarder("a").next(hot, 10).get(0)))
                .extracting(e -> e.reservationId() + " " + e.quantity()).containsExactly("o-1 1", "o-3 4");
    }

    @Test
    void whatADeadForwarderTookIsClaimedAndNothingIsLeftOnceAcknowledged() throws Exception {
        String sku = scripts.skuWithAvailable(10);
        String xid = RedisScripts.xid();
        for (int i = 0; i < 5; i++) {
            scripts.tryScript.run(xid, "order-" + i, i, "u" + i, RedisScripts.lines(sku, 1));
        }
        StockEventStream dead = forwarder("dead");
        assertThat(dead.next(sku, 3)).hasSize(3); // taken, never acknowledged: the process died

        StockEventStream alive = forwarder("alive");
        List<StockEventStream.Entry> rest = alive.next(sku, 100);
        assertThat(rest).hasSize(2); // what was never handed out; the other three are still the dead one's
        alive.done(sku, rest.stream().map(StockEventStream.Entry::id).toList());
        assertThat(alive.next(sku, 100)).isEmpty();

        // the dead one's entries can be claimed once it has been idle for the minimum asked (100 ms); a pass before
        // that claims nothing: all three are claimed, in one pass or several, and not one more
        AtomicInteger taken = new AtomicInteger();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> taken.addAndGet(alive.claimAbandoned(sku, Duration.ofMillis(100), 100)) >= 3);
        assertThat(taken).hasValue(3);
        List<StockEventStream.Entry> claimed = alive.next(sku, 100);
        assertThat(claimed).extracting(e -> StockEventForwarder.events(e).get(0).reservationId())
                .containsExactly("order-0", "order-1", "order-2");
        alive.done(sku, claimed.stream().map(StockEventStream.Entry::id).toList());

        assertThat(length(sku)).isZero();
        assertThat(scripts.redis.opsForStream().pending(StockKeys.events(sku), StockEventStream.GROUP).getTotalPendingMessages())
                .isZero();
        // the dead consumer, holding nothing now, is removed by a pass once it has been idle for the minimum
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            alive.claimAbandoned(sku, Duration.ofMillis(100), 100);
            assertThat(scripts.redis.opsForStream().consumers(StockKeys.events(sku), StockEventStream.GROUP))
                    .extracting(c -> c.consumerName()).containsExactly("alive");
        });
    }

    @Test
    void anEntryTheStreamDroppedWhileItWasPendingIsReadAsEmptyAndCanBeAcknowledged() {
        String sku = scripts.skuWithAvailable(10);
        scripts.tryScript.run(RedisScripts.xid(), "order-1", 1, "alice", RedisScripts.lines(sku, 1));
        StockEventStream forwarder = forwarder("a");
        List<StockEventStream.Entry> taken = forwarder.next(sku, 10);
        // what XADD MAXLEN does to the oldest entries when a stream holds too many unsent ones
        scripts.redis.opsForStream().delete(StockKeys.events(sku), taken.get(0).id());

        List<StockEventStream.Entry> again = forwarder.next(sku, 10);

        assertThat(again).singleElement().satisfies(e -> assertThat(StockEventForwarder.events(e)).isEmpty());
        forwarder.done(sku, List.of(again.get(0).id()));
        assertThat(forwarder.next(sku, 10)).isEmpty();
    }

    @Test
    void concurrentForwardersEachGetEveryEntryOnceBetweenThem() throws Exception {
        String sku = scripts.skuWithAvailable(1_000);
        String xid = RedisScripts.xid();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch writing = new CountDownLatch(8);
        List<Future<?>> forwarders = new ArrayList<>();
        try {
            for (int t = 0; t < 8; t++) {
                int thread = t;
                pool.submit(() -> {
                    try {
                        for (int i = 0; i < 50; i++) {
                            scripts.tryScript.run(xid, "t" + thread + "-" + i, i, "u", RedisScripts.lines(sku, 1));
                        }
                    } finally {
                        writing.countDown();
                    }
                    return null;
                });
            }
            for (int f = 0; f < 4; f++) {
                StockEventStream forwarder = forwarder("f" + f);
                // each forwards what it is given until, every Try written before it began reading, it is given
                // nothing more: then no entry is left that a forwarder has not had
                forwarders.add(pool.submit(() -> await().atMost(Duration.ofSeconds(30)).pollInSameThread()
                        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
                            boolean allWritten = writing.getCount() == 0;
                            forwardUntilGivenNothing(forwarder, sku, seen);
                            return allWritten;
                        })));
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> forwarder : forwarders) {
            forwarder.get();
        }

        assertThat(seen).hasSize(400).doesNotHaveDuplicates();
        assertThat(length(sku)).isZero();
    }

    /** Forwards batch after batch of the SKU's entries (noting each event's reservation) until a read gives none. */
    private static void forwardUntilGivenNothing(StockEventStream forwarder, String sku, List<String> seen) {
        List<StockEventStream.Entry> batch;
        do {
            batch = forwarder.next(sku, 7);
            batch.forEach(e -> StockEventForwarder.events(e).forEach(m -> seen.add(m.reservationId())));
            forwarder.done(sku, batch.stream().map(StockEventStream.Entry::id).toList());
        } while (!batch.isEmpty());
    }
}
