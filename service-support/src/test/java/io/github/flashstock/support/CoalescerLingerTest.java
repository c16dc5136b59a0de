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
    void callersAnsweredTogetherGoInOneCallAgain() {
        int callers = 8;
        int rounds = 20;
        List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
        try (Coalescer<Integer, Integer> coalescer = doubling(
                new Coalescer.Settings(callers, 1, Duration.ofSeconds(30), LONG_LINGER), calls)) {
            // if a lingering sender were not woken when its callers came back, every call would wait the whole
            // linger: 20 rounds of 5 s
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> runClosedLoop(coalescer, callers, rounds));
        }
        // the first call goes out at once with whoever had arrived; from then on the sender waits for the callers
        // it answered, so every other call carries all of them
        assertThat(calls.stream().mapToInt(Integer::intValue).sum()).isEqualTo(callers * rounds);
        assertThat(calls.subList(calls.size() - rounds + 1, calls.size())).containsOnly(callers);
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
