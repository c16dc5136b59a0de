package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisSystemException;

/** The coalescer on the real script: what a shared call does when one of its Tries meets a corrupt SKU. */
class TryCoalescerIT extends ScriptITSupport {

    @Test
    void aCorruptSkuFailsItsOwnTryAndTheTriesSharingItsCallReserveOnce() throws Exception {
        // Given two good SKUs and one whose segment is corrupt, and a coalescer holding its first call until three
        // more Tries have queued behind it, one of them touching the corrupt SKU (one call at a time; every Try
        // starts with the same SKU, so all share its slot's queue)
        String good = scripts.skuWithAvailable(10);
        String other = scripts.skuWithAvailable(10);
        String corrupt = scripts.skuWithAvailable(10);
        scripts.redis.opsForHash().put(StockKeys.segment(corrupt, 0), "available", "not-a-number");
        CountDownLatch release = new CountDownLatch(1);
        ConcurrentLinkedQueue<Integer> callSizes = new ConcurrentLinkedQueue<>();
        TryCoalescer coalescer = new TryCoalescer(batch -> {
            callSizes.add(batch.size());
            if (callSizes.size() == 1) {
                TryCoalescerTest.hold(release);
            }
            return scripts.tryScript.run(batch);
        }, new TryCoalescing(16, 1, Duration.ofSeconds(30)), new SimpleMeterRegistry());
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            TryRequest opening = new TryRequest(xid(), "order-0", 1, "ann", lines(good, 1));
            TryRequest before = new TryRequest(xid(), "order-1", 2, "alice", lines(good, 2));
            TryRequest poisoned = new TryRequest(xid(), "order-2", 3, "bob", lines(good, 1, corrupt, 1));
            TryRequest after = new TryRequest(xid(), "order-3", 4, "carol", lines(good, 3, other, 3));
            Future<TryOutcome> first = callers.submit(() -> coalescer.reserve(opening));
            await().atMost(Duration.ofSeconds(10)).until(() -> callSizes.size() == 1);
            Future<TryOutcome> a = callers.submit(() -> coalescer.reserve(before));
            await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.waiting() == 1);
            Future<TryOutcome> b = callers.submit(() -> coalescer.reserve(poisoned));
            await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.waiting() == 2);
            Future<TryOutcome> c = callers.submit(() -> coalescer.reserve(after));
            await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.waiting() == 3);

            // When the first call returns and the three queued Tries go in one call
            release.countDown();

            // Then the call of three met Redis's error, went again one by one, and only the poisoned Try failed
            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.Reserved());
            assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.Reserved());
            assertThat(c.get(30, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.Reserved());
            assertThatThrownBy(() -> b.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(RedisSystemException.class);
            assertThat(callSizes).containsExactly(1, 3, 1, 1, 1);
            // each reserved once: nothing from the failed shared call, nothing from the poisoned Try
            assertThat(scripts.stock(good).reserved()).isEqualTo(1 + 2 + 3);
            assertThat(scripts.stock(other).reserved()).isEqualTo(3);
            assertThat(scripts.reader.heldBy(good, "bob")).isZero();
            assertThat(scripts.reader.fenceState(good, poisoned.xid(), "order-2")).isEmpty();
            assertConserved(scripts.stock(good));
            assertConserved(scripts.stock(other));
        } finally {
            release.countDown();
            callers.shutdownNow();
            coalescer.destroy();
        }
    }
}
