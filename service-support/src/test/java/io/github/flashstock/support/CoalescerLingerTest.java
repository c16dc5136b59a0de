package io.github.flashstock.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Coalescer}'s linger: callers answered together go together again, and a lone caller never waits. */
class CoalescerLingerTest {

    private static final Duration LONG_LINGER = Duration.ofSeconds(5);

    private static Coalescer<Integer, Integer> doubling(Coalescer.Settings settings, List<Integer> calls) {
        return new Coalescer<>("the test coalescer", "test-sender", settings, requests -> {
            calls.add(requests.size());
            return requests.stream().map(r -> 2 * r).toList();
        }, request -> "one lane", e -> false, (request, wait) -> new IllegalStateException("timed out"),
                size -> { });
    }

    @Test
    void callersAnsweredTogetherGoInOneCallAgain() throws Exception {
        int callers = 8;
        int rounds = 20;
        List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        try (Coalescer<Integer, Integer> coalescer = new Coalescer<>("the test coalescer", "test-sender",
                new Coalescer.Settings(callers, 1, Duration.ofSeconds(30), LONG_LINGER), requests -> {
                    if (first.getAndSet(false)) {
                        holding.countDown();
                        try {
                            held.await(); // the call that holds the lane until every caller is queued
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    } else {
                        calls.add(requests.size());
                    }
                    return requests.stream().map(r -> 2 * r).toList();
                }, request -> "one lane", e -> false, (request, wait) -> new IllegalStateException("timed out"),
                size -> { })) {
            // the callers start in step: a first call holds the only lane while all of them queue behind it (on a
            // busy machine they would otherwise arrive spread over the first calls, and stay out of step)
            Thread holder = new Thread(() -> coalescer.submit(-1));
            holder.start();
            holding.await();
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                int id = c;
                done.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        int request = id * 1000 + r;
                        assertThat(coalescer.submit(request)).isEqualTo(2 * request);
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (coalescer.waiting() < callers) {
                assertThat(System.nanoTime()).as("every caller queued behind the held call").isLessThan(deadline);
                Thread.sleep(5);
            }
            held.countDown();
            // if a lingering sender were not woken when its callers came back, every call would wait the whole
            // linger: 20 rounds of 5 s
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                for (Future<?> f : done) {
                    f.get();
                }
            });
            pool.shutdown();
            holder.join();
        }
        // from then on the sender waits for the callers it answered, so every call carries all of them
        assertThat(calls).hasSize(rounds).containsOnly(callers);
    }

    @Test
    void aLoneCallerIsNeverHeldBack() {
        List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
        try (Coalescer<Integer, Integer> coalescer = doubling(
                new Coalescer.Settings(16, 1, Duration.ofSeconds(30), LONG_LINGER), calls)) {
            assertTimeoutPreemptively(Duration.ofSeconds(4), () -> {
                for (int i = 0; i < 50; i++) {
                    assertThat(coalescer.submit(i)).isEqualTo(2 * i);
                }
            });
        }
        assertThat(calls).hasSize(50).containsOnly(1);
    }

    @Test
    void aLingerEndsWhenTheCallersDoNotComeBack() {
        List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
        try (Coalescer<Integer, Integer> coalescer = doubling(
                new Coalescer.Settings(16, 1, Duration.ofSeconds(30), Duration.ofMillis(200)), calls)) {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                runClosedLoop(coalescer, 4, 1);
                // the sender that answered them waits up to 200 ms for four; one comes, and goes when it ends
                assertThat(coalescer.submit(7)).isEqualTo(14);
            });
        }
        assertThat(calls.stream().mapToInt(Integer::intValue).sum()).isEqualTo(5);
    }

    @Test
    void everyCallerGetsItsOwnAnswerUnderManyThreads() throws Exception {
        int threads = 16;
        int each = 300;
        List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
        try (Coalescer<Integer, Integer> coalescer = doubling(
                new Coalescer.Settings(8, 3, Duration.ofSeconds(30), Duration.ofMillis(2)), calls)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicInteger wrong = new AtomicInteger();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                done.add(pool.submit(() -> {
                    for (int i = base; i < base + each; i++) {
                        if (coalescer.submit(i) != 2 * i) {
                            wrong.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertThat(wrong).hasValue(0);
        }
        assertThat(calls.stream().mapToInt(Integer::intValue).sum()).isEqualTo(threads * each);
        assertThat(calls).allMatch(size -> size >= 1 && size <= 8);
    }

    @Test
    void refusesALingerItCannotRunWith() {
        assertThatThrownBy(() -> new Coalescer.Settings(16, 2, Duration.ofSeconds(1), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linger");
        assertThatThrownBy(() -> new Coalescer.Settings(16, 2, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linger");
        assertThat(new Coalescer.Settings(16, 2, Duration.ofSeconds(1)).linger()).isZero();
    }

    /** {@code callers} threads, each submitting {@code rounds} requests one after the other. */
    private static void runClosedLoop(Coalescer<Integer, Integer> coalescer, int callers, int rounds)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int id = c;
            done.add(pool.submit(() -> {
                start.await();
                for (int r = 0; r < rounds; r++) {
                    int request = id * 1000 + r;
                    assertThat(coalescer.submit(request)).isEqualTo(2 * request);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
    }
}
