package io.github.flashstock.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Predicate;

/**
 * Gathers requests that arrive together for the same lane into one call of a batch runner: one script call, one
 * transaction, one statement for many requests, each caller still waiting for, and getting, its own answer.
 *
 * <p>A request that finds fewer than {@code inFlight} calls under way for its lane is sent at once; the requests
 * that arrive while calls are under way wait for the next free call and go together, at most {@code maxBatch} per
 * call. The calls run on a small pool of sender threads; the callers wait, at most {@code maxWait}, queueing
 * included.
 *
 * <p>With a {@code linger}, a sender whose call of {@code k} requests has just been answered, while {@code q} others
 * waited, waits at most that long until {@code k + q} requests are queued (at most {@code maxBatch}) before it sends
 * the next call: the callers it has just answered usually come back at once, and then go in one call with those who
 * waited, rather than in several small ones.
 * That pays where every call costs the server a fixed price whatever it carries (a Redis that fsyncs after each pass
 * of its event loop); a request that arrives on an idle lane is still sent at once.
 *
 * <p>When a call of several requests fails, each request is sent again alone, so that only the one causing the
 * failure fails; that needs a runner whose failed call changed nothing, or whose every step is safe to repeat. A
 * failure that {@code failsEveryRequest} names (the server could not be reached) fails every request of the call
 * at once instead: going again one by one would only wait longer.
 *
 * @param <Q> a request
 * @param <R> its answer
 */
public final class Coalescer<Q, R> implements AutoCloseable {

    /** Runs one call: one answer per request, in order. */
    @FunctionalInterface
    public interface BatchRunner<Q, R> {
        List<R> run(List<Q> requests);
    }

    /**
     * How requests are gathered.
     *
     * @param maxBatch most requests in one call; 1 turns coalescing off (each request runs on its caller's thread)
     * @param inFlight most calls under way at once for one lane
     * @param maxWait  longest a request waits for its call, queueing included; then it fails as a timeout
     * @param linger   longest a sender whose call was just answered waits for as many requests before its next
     *                 call; zero sends at once
     */
    public record Settings(int maxBatch, int inFlight, Duration maxWait, Duration linger) {

        public Settings {
            check("coalescing", maxBatch, inFlight, maxWait);
            checkLinger("coalescing", linger, maxWait);
        }

        /** Without a linger. */
        public Settings(int maxBatch, int inFlight, Duration maxWait) {
            this(maxBatch, inFlight, maxWait, Duration.ZERO);
        }

        /**
         * Refuses a linger no coalescer can run with; the message names it under {@code prefix}.
         *
         * @throws IllegalArgumentException linger negative, or not shorter than max-wait
         */
        public static void checkLinger(String prefix, Duration linger, Duration maxWait) {
            if (linger == null || linger.isNegative() || linger.compareTo(maxWait) >= 0) {
                throw new IllegalArgumentException(prefix + ".linger must be zero or more and shorter than max-wait ("
                        + maxWait + "), was " + linger);
            }
        }

        /**
         * Refuses settings no coalescer can run with; the message names them under {@code prefix} (a settings
         * record's prefix, such as {@code inventory.try-coalescing}).
         *
         * @throws IllegalArgumentException max-batch or in-flight below 1, or max-wait not positive
         */
        public static void check(String prefix, int maxBatch, int inFlight, Duration maxWait) {
            if (maxBatch < 1 || inFlight < 1) {
                throw new IllegalArgumentException(prefix + ": max-batch and in-flight must be at least 1, were "
                        + maxBatch + " and " + inFlight);
            }
            if (maxWait == null || maxWait.isNegative() || maxWait.isZero()) {
                throw new IllegalArgumentException(prefix + ".max-wait must be positive, was " + maxWait);
            }
        }
    }

    private final String name;
    private final BatchRunner<Q, R> runner;
    private final Settings settings;
    private final Function<Q, Object> laneOf;
    private final Predicate<RuntimeException> failsEveryRequest;
    private final BiFunction<Q, Duration, RuntimeException> timeout;
    private final IntConsumer batchSizes;
    private final ExecutorService senders;
    private final Map<Object, Lane<Q, R>> lanes = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    /**
     * @param name              names the coalescer in errors (e.g. "the Try coalescer")
     * @param threads           names its sender threads (with a number appended)
     * @param laneOf            the lane of a request: requests of one lane may share a call
     * @param failsEveryRequest a failure after which the call's requests are not sent again one by one
     * @param timeout           the exception for a request that waited longer than {@link Settings#maxWait()}
     * @param batchSizes        told the size of every call
     */
    public Coalescer(String name, String threads, Settings settings, BatchRunner<Q, R> runner, Function<Q, Object> laneOf,
                     Predicate<RuntimeException> failsEveryRequest, BiFunction<Q, Duration, RuntimeException> timeout,
                     IntConsumer batchSizes) {
        this.name = name;
        this.runner = runner;
        this.settings = settings;
        this.laneOf = laneOf;
        this.failsEveryRequest = failsEveryRequest;
        this.timeout = timeout;
        this.batchSizes = batchSizes;
        this.senders = settings.maxBatch() == 1 ? null
                : Executors.newFixedThreadPool(2 * settings.inFlight(), senderThreads(threads));
    }

    /** The answer to one request; blocks until its call has run. */
    public R submit(Q request) {
        if (senders == null) {
            batchSizes.accept(1);
            return runner.run(List.of(request)).get(0);
        }
        if (stopped) {
            throw stopped();
        }
        Pending<Q, R> pending = new Pending<>(request);
        Lane<Q, R> lane = lanes.computeIfAbsent(laneOf.apply(request), key -> new Lane<>());
        lane.add(pending);
        if (lane.tryStart(settings.inFlight())) {
            schedule(lane, 0);
        }
        return await(pending);
    }

    /** Requests queued for a call, over all lanes. */
    public int waiting() {
        return lanes.values().stream().mapToInt(lane -> lane.queued.get()).sum();
    }

    /**
     * Sends one call with what the lane has queued, then schedules itself again; ends when the queue is empty.
     *
     * @param expected how many requests the sender expects to be queued soon: those its last call answered and
     *                 those that waited meanwhile (0 for a sender just started); with a linger, it first waits for
     *                 that many
     */
    private void send(Lane<Q, R> lane, int expected) {
        if (expected > 1 && !settings.linger().isZero()) {
            lane.gather(Math.min(expected, settings.maxBatch()), settings.linger().toNanos());
        }
        List<Pending<Q, R>> batch = lane.take(settings.maxBatch());
        if (batch.isEmpty()) {
            lane.running.decrementAndGet();
            // a request queued after take() and before the decrement saw every call under way: pick it up here
            if (!lane.queue.isEmpty() && lane.tryStart(settings.inFlight())) {
                schedule(lane, 0);
            }
            return;
        }
        batchSizes.accept(batch.size());
        int waited = 0;
        try {
            List<R> answers = runner.run(batch.stream().map(p -> p.request).toList());
            waited = lane.queued.get();
            if (answers == null || answers.size() != batch.size()) {
                throw new IllegalStateException(name + ": " + batch.size() + " requests got "
                        + (answers == null ? "no" : answers.size()) + " answers");
            }
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result.complete(answers.get(i));
            }
        } catch (RuntimeException e) {
            if (batch.size() > 1 && !failsEveryRequest.test(e)) {
                batch.forEach(this::runAlone);
            } else {
                batch.forEach(p -> p.result.completeExceptionally(e));
            }
        } catch (Error e) {
            batch.forEach(p -> p.result.completeExceptionally(e));
        }
        // again through the pool rather than in a loop, so that other lanes' calls get their turn
        schedule(lane, batch.size() + waited);
    }

    private void schedule(Lane<Q, R> lane, int expected) {
        try {
            senders.execute(() -> send(lane, expected));
        } catch (RejectedExecutionException e) {
            // stopping: nothing will send what is queued
            failQueued(lane);
        }
    }

    private void failQueued(Lane<Q, R> lane) {
        for (Pending<Q, R> p = lane.poll(); p != null; p = lane.poll()) {
            p.result.completeExceptionally(stopped());
        }
    }

    private IllegalStateException stopped() {
        return new IllegalStateException(name + " has stopped");
    }

    private void runAlone(Pending<Q, R> pending) {
        try {
            pending.result.complete(runner.run(List.of(pending.request)).get(0));
        } catch (RuntimeException | Error e) {
            pending.result.completeExceptionally(e);
        }
    }

    private R await(Pending<Q, R> pending) {
        try {
            return pending.result.get(settings.maxWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.abandoned = true;
            throw timeout.apply(pending.request, settings.maxWait());
        } catch (InterruptedException e) {
            pending.abandoned = true;
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted while waiting", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Stops the senders; requests still waiting fail at once rather than after {@link Settings#maxWait()}. */
    @Override
    public void close() {
        if (senders != null) {
            stopped = true;
            senders.shutdownNow();
            lanes.values().forEach(this::failQueued);
        }
    }

    private static ThreadFactory senderThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The requests of one lane waiting for a call, and how many calls are under way. */
    private static final class Lane<Q, R> {
        final ConcurrentLinkedQueue<Pending<Q, R>> queue = new ConcurrentLinkedQueue<>();
        /** The queue's length, kept beside it (a {@link ConcurrentLinkedQueue} counts by walking). */
        final AtomicInteger queued = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        /** Senders lingering, each with the queue length it waits for. */
        final Map<Thread, Integer> lingering = new ConcurrentHashMap<>();

        void add(Pending<Q, R> pending) {
            queue.add(pending);
            int now = queued.incrementAndGet();
            if (!lingering.isEmpty()) {
                lingering.forEach((sender, awaited) -> {
                    if (now >= awaited) {
                        LockSupport.unpark(sender);
                    }
                });
            }
        }

        Pending<Q, R> poll() {
            Pending<Q, R> p = queue.poll();
            if (p != null) {
                queued.decrementAndGet();
            }
            return p;
        }

        /** Waits, at most {@code nanos}, until {@code awaited} requests are queued. */
        void gather(int awaited, long nanos) {
            if (queued.get() >= awaited) {
                return;
            }
            Thread me = Thread.currentThread();
            long deadline = System.nanoTime() + nanos;
            lingering.put(me, awaited);
            try {
                for (long left = nanos; left > 0 && queued.get() < awaited && !me.isInterrupted();
                     left = deadline - System.nanoTime()) {
                    LockSupport.parkNanos(this, left);
                }
            } finally {
                lingering.remove(me);
            }
        }

        boolean tryStart(int limit) {
            for (int now = running.get(); now < limit; now = running.get()) {
                if (running.compareAndSet(now, now + 1)) {
                    return true;
                }
            }
            return false;
        }

        /** Up to {@code max} waiting requests, oldest first, leaving out those whose callers gave up. */
        List<Pending<Q, R>> take(int max) {
            List<Pending<Q, R>> batch = new ArrayList<>(Math.min(max, 16));
            while (batch.size() < max) {
                Pending<Q, R> p = poll();
                if (p == null) {
                    break;
                }
                if (!p.abandoned) {
                    batch.add(p);
                }
            }
            return batch;
        }
    }

    private static final class Pending<Q, R> {
        final Q request;
        final CompletableFuture<R> result = new CompletableFuture<>();
        volatile boolean abandoned;

        Pending(Q request) {
            this.request = request;
        }
    }
}
