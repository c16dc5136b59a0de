package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/** The coalescer against a stand-in for the script call: who goes with whom, how many at once, what fails. */
class TryCoalescerTest {

    private final ExecutorService callers = Executors.newFixedThreadPool(64);
    private TryCoalescer coalescer;

    @AfterEach
    void stop() {
        callers.shutdownNow();
        if (coalescer != null) {
            coalescer.destroy();
        }
    }

    /** Refuses with "available" = the reservation's number, so each caller can tell its own outcome. */
    private static List<TryOutcome> echo(List<TryRequest> batch) {
        return batch.stream().<TryOutcome>map(r -> new TryOutcome.InsufficientStock(r.lines().get(0).skuId(), 1,
                Long.parseLong(r.reservationId()))).toList();
    }

    private static TryRequest request(String sku, int n) {
        return new TryRequest("xid-" + n, Integer.toString(n), n, "user-" + n, List.of(new StockLine(sku, 1)));
    }

    @Test
    void everyCallerGetsItsOwnOutcomeAndCallsStayWithinTheirBounds() throws Exception {
        // Given a script call that takes 2 ms, at most 8 Tries per call and 2 calls at once per slot
        ConcurrentLinkedQueue<Integer> sizes = new ConcurrentLinkedQueue<>();
        AtomicInteger underWay = new AtomicInteger();
        AtomicInteger mostUnderWay = new AtomicInteger();
        coalescer = new TryCoalescer(batch -> {
            mostUnderWay.accumulateAndGet(underWay.incrementAndGet(), Math::max);
            sizes.add(batch.size());
            sleep(2);
            underWay.decrementAndGet();
            return echo(batch);
        }, new TryCoalescing(8, 2, Duration.ofSeconds(30)), new SimpleMeterRegistry());

        // When 64 threads send 2,000 Tries of one SKU
        List<Future<Long>> answers = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int n = i;
            answers.add(callers.submit(() -> ((TryOutcome.InsufficientStock) coalescer.reserve(request("hot", n)))
                    .available()));
        }

        // Then each caller got the answer to its own Try, every Try ran once, and calls were shared but bounded
        for (int i = 0; i < 2000; i++) {
            assertThat(answers.get(i).get(1, TimeUnit.MINUTES)).isEqualTo(i);
        }
        assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(2000);
        assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 8));
        assertThat(sizes.size()).as("calls for 2,000 Tries").isLessThan(1000);
        assertThat(mostUnderWay.get()).isLessThanOrEqualTo(2);
    }

    @Test
    void slotsDoNotWaitForEachOther() throws Exception {
        // Given two SKUs in different slots, one call at a time per slot, and the first SKU's call stuck
        String stuck = "sku-a";
        String free = "sku-b";
        assertThat(slot(stuck)).isNotEqualTo(slot(free));
        CountDownLatch release = new CountDownLatch(1);
        coalescer = new TryCoalescer(batch -> {
            if (batch.get(0).lines().get(0).skuId().equals(stuck)) {
                hold(release);
            }
            return echo(batch);
        }, new TryCoalescing(16, 1, Duration.ofSeconds(30)), new SimpleMeterRegistry());
        Future<TryOutcome> waiting = callers.submit(() -> coalescer.reserve(request(stuck, 1)));

        // When the other SKU's Try comes
        TryOutcome other = callers.submit(() -> coalescer.reserve(request(free, 2))).get(10, TimeUnit.SECONDS);

        // Then it is answered while the first is still under way
        assertThat(other).isEqualTo(new TryOutcome.InsufficientStock(free, 1, 2));
        assertThat(waiting).isNotDone();
        release.countDown();
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.InsufficientStock(stuck, 1, 1));
    }

    @Test
    void anErrorAnswerFailsOnlyTheTryThatCausesItAndTheOthersGoAgainAlone() throws Exception {
        // Given one call at a time, a first call that waits until two more Tries queue behind it, and Redis
        // answering every call that carries reservation 2 with an error
        CountDownLatch release = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> calls = new ConcurrentLinkedQueue<>();
        coalescer = oneCallAtATime(holdingCallOfOne(release, calls, batch -> {
            if (batch.stream().anyMatch(r -> r.reservationId().equals("2"))) {
                throw new RedisSystemException("ERR user_script: corrupt stock hash", null);
            }
            return echo(batch);
        }));
        Future<TryOutcome> first = send(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.contains("1"));
        Future<TryOutcome> second = sendAndWaitQueued(2, 1);
        Future<TryOutcome> third = sendAndWaitQueued(3, 2);

        // When the first call ends and the next one, carrying 2 and 3, is answered with the error
        release.countDown();

        // Then 2 fails, 3 is answered after going again alone, and a later Try runs normally
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 1));
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(RedisSystemException.class);
        assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 3));
        assertThat(calls).containsExactly("1", "2,3", "2", "3");
        assertThat(coalescer.reserve(request("hot", 4))).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 4));
    }

    @Test
    void redisOutOfReachFailsEveryTryOfTheCallWithoutGoingAgain() throws Exception {
        // Given one call at a time, and the connection lost for the call after the first
        CountDownLatch release = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> calls = new ConcurrentLinkedQueue<>();
        coalescer = oneCallAtATime(holdingCallOfOne(release, calls, batch -> {
            if (calls.size() > 1) {
                throw new RedisConnectionFailureException("connection reset");
            }
            return echo(batch);
        }));
        Future<TryOutcome> first = send(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.contains("1"));
        Future<TryOutcome> second = sendAndWaitQueued(2, 1);
        Future<TryOutcome> third = sendAndWaitQueued(3, 2);

        // When the first call ends and the next one cannot reach Redis
        release.countDown();

        // Then both Tries of that call fail at once, and neither was sent again
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 1));
        for (Future<TryOutcome> f : List.of(second, third)) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RedisConnectionFailureException.class);
        }
        assertThat(calls).containsExactly("1", "2,3");
    }

    /** A coalescer sending one call at a time for a slot, with a long wait allowed. */
    private static TryCoalescer oneCallAtATime(TryCoalescer.BatchRunner runner) {
        return new TryCoalescer(runner, new TryCoalescing(16, 1, Duration.ofSeconds(30)), new SimpleMeterRegistry());
    }

    /**
     * A stand-in that notes each call's reservation ids (joined by commas) in {@code calls}, holds the call made of
     * reservation 1 alone until {@code release} opens, and answers with {@code then}.
     */
    private static TryCoalescer.BatchRunner holdingCallOfOne(CountDownLatch release, Queue<String> calls,
                                                            TryCoalescer.BatchRunner then) {
        return batch -> {
            String ids = String.join(",", batch.stream().map(TryRequest::reservationId).toList());
            calls.add(ids);
            if (ids.equals("1")) {
                hold(release);
            }
            return then.run(batch);
        };
    }

    /** Sends Try {@code n} of SKU "hot" from a caller thread. */
    private Future<TryOutcome> send(int n) {
        return callers.submit(() -> coalescer.reserve(request("hot", n)));
    }

    /** Sends Try {@code n} and waits until {@code queued} Tries wait for a call, this one the last. */
    private Future<TryOutcome> sendAndWaitQueued(int n, int queued) {
        Future<TryOutcome> f = send(n);
        await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.waiting() == queued);
        return f;
    }

    @Test
    void aTryThatWaitsTooLongFailsAsATimeoutAndIsNeverSent() throws Exception {
        // Given one call at a time, a wait of at most 200 ms, and a first call that takes longer
        CountDownLatch release = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> sent = new ConcurrentLinkedQueue<>();
        coalescer = new TryCoalescer(batch -> {
            batch.forEach(r -> sent.add(r.reservationId()));
            if (batch.get(0).reservationId().equals("1")) {
                hold(release);
            }
            return echo(batch);
        }, new TryCoalescing(16, 1, Duration.ofMillis(200)), new SimpleMeterRegistry());
        Future<TryOutcome> first = callers.submit(() -> coalescer.reserve(request("hot", 1)));
        await().atMost(Duration.ofSeconds(10)).until(() -> sent.contains("1"));

        // When a second Try queues behind it
        assertThatThrownBy(() -> coalescer.reserve(request("hot", 2))).isInstanceOf(QueryTimeoutException.class)
                .hasMessageContaining("reservation 2");

        // Then, once the first call is back, the abandoned Try is left out of the next call
        release.countDown();
        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(QueryTimeoutException.class);
        assertThat(coalescer.reserve(request("hot", 3))).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 3));
        assertThat(sent).containsExactly("1", "3");
    }

    @Test
    void triesStillWaitingFailAtOnceWhenTheCoalescerStops() throws Exception {
        // Given one call at a time, a long wait allowed, a stuck first call and a Try queued behind it
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        coalescer = new TryCoalescer(batch -> {
            entered.countDown();
            hold(release);
            return echo(batch);
        }, new TryCoalescing(16, 1, Duration.ofMinutes(5)), new SimpleMeterRegistry());
        callers.submit(() -> coalescer.reserve(request("hot", 1)));
        hold(entered);
        Future<TryOutcome> queued = callers.submit(() -> coalescer.reserve(request("hot", 2)));
        await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.waiting() == 1);

        // When the service shuts down
        coalescer.destroy();

        // Then the queued Try fails now, not in five minutes, and so does a Try that comes later
        assertThatThrownBy(() -> queued.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("the Try coalescer has stopped");
        assertThatThrownBy(() -> coalescer.reserve(request("hot", 3))).hasMessage("the Try coalescer has stopped");
        release.countDown();
    }

    @Test
    void aMaxBatchOfOneRunsEachTryAloneOnItsCallersThread() {
        ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        coalescer = new TryCoalescer(batch -> {
            threads.add(Thread.currentThread());
            assertThat(batch).hasSize(1);
            return echo(batch);
        }, new TryCoalescing(1, 2, Duration.ofSeconds(1)), new SimpleMeterRegistry());

        assertThat(coalescer.reserve(request("hot", 7))).isEqualTo(new TryOutcome.InsufficientStock("hot", 1, 7));
        assertThat(threads).containsExactly(Thread.currentThread());
    }

    @Test
    void refusesSettingsThatCannotWork() {
        assertThatThrownBy(() -> new TryCoalescing(0, 2, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-batch");
        assertThatThrownBy(() -> new TryCoalescing(16, 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in-flight");
        assertThatThrownBy(() -> new TryCoalescing(16, 2, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-wait");
        assertThatThrownBy(() -> new TryCoalescing(16, 2, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inventory.try-coalescing.linger");
        assertThatThrownBy(() -> new TryCoalescing(16, 2, Duration.ofSeconds(1), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linger");
        assertThat(new TryCoalescing(16, 2, Duration.ofSeconds(1)).gathering().linger()).isZero();
    }

    @Test
    void bindsFromPropertiesWithTheShippedDefaults() {
        TryCoalescing defaults = new org.springframework.boot.context.properties.bind.Binder(
                new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of("inventory.try-coalescing.in-flight", "4")))
                .bindOrCreate("inventory.try-coalescing", TryCoalescing.class);
        assertThat(defaults).isEqualTo(new TryCoalescing(64, 4, Duration.ofSeconds(3), Duration.ZERO));
        TryCoalescing lingering = new org.springframework.boot.context.properties.bind.Binder(
                new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of("inventory.try-coalescing.in-flight", "2",
                                "inventory.try-coalescing.linger", "150us")))
                .bindOrCreate("inventory.try-coalescing", TryCoalescing.class);
        assertThat(lingering.inFlight()).isEqualTo(2);
        assertThat(lingering.gathering().linger()).isEqualTo(Duration.ofNanos(150_000));
    }

    private static int slot(String sku) {
        return ClusterSlotHashUtil.calculateSlot(StockKeys.stock(sku));
    }

    /** Blocks until {@code latch} opens (a stand-in holding its call); shared with {@link TryCoalescerIT}. */
    static void hold(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
