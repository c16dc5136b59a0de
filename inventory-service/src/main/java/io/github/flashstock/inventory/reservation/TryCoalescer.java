package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockKeys;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
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
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.stereotype.Component;

/**
 * Runs Tries through {@link TryScript}, gathering the ones that arrive together for the same cluster slot (so for
 * the same hot SKU) into one call of {@code try.lua}. The script decides them one after the other, each all or
 * nothing on its own, exactly as separate calls in that order would; what is saved is the per-call cost, in Redis
 * (one EVALSHA, one read and one write on the socket for many Tries) and in the client.
 *
 * <p>No timer: a Try that finds fewer than {@link TryCoalescing#inFlight()} calls under way for its slot is sent at
 * once; the Tries that arrive while calls are under way wait for the next free call and go together, at most
 * {@link TryCoalescing#maxBatch()} per call. The calls run on a small pool of sender threads; the callers wait.
 *
 * <p>When Redis cannot be reached (connection lost, timeout) a call fails every Try in it. When Redis answers a call
 * with an error, each Try of the call is sent again alone, so that only the one causing the error fails. That is
 * safe because the script decides the whole call before its first write, and the errors come from deciding
 * (corrupt values); an error while writing (a key of the wrong type under a SKU's prefix) could leave locks without
 * fence records, which keeps units reserved, never oversold, until the reconciler reports the drift. A Try that
 * failed may still have reserved (a reply lost after the script ran); its global transaction rolls back, and
 * Cancel releases what the fence record holds.
 */
@Component
public class TryCoalescer implements DisposableBean {

    /** Runs one call of {@code try.lua}: one outcome per request, in order. */
    interface BatchRunner {
        List<TryOutcome> run(List<TryRequest> requests);
    }

    private final BatchRunner runner;
    private final TryCoalescing settings;
    private final DistributionSummary batchSizes;
    private final ExecutorService senders;
    private final Map<Integer, Lane> lanes = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    @Autowired
    public TryCoalescer(TryScript script, TryCoalescing settings, MeterRegistry meters) {
        this(script::run, settings, meters);
    }

    TryCoalescer(BatchRunner runner, TryCoalescing settings, MeterRegistry meters) {
        this.runner = runner;
        this.settings = settings;
        this.batchSizes = DistributionSummary.builder("inventory.try.batch.size")
                .description("reservations decided by one call of try.lua")
                .register(meters);
        Gauge.builder("inventory.try.waiting", this, TryCoalescer::waiting)
                .description("Tries waiting for a call of try.lua")
                .register(meters);
        this.senders = settings.maxBatch() == 1 ? null
                : Executors.newFixedThreadPool(2 * settings.inFlight(), senderThreads());
    }

    /** Decides one reservation; blocks until its call has run. */
    public TryOutcome reserve(TryRequest request) {
        if (senders == null) {
            batchSizes.record(1);
            return runner.run(List.of(request)).get(0);
        }
        if (stopped) {
            throw stopped();
        }
        Pending pending = new Pending(request);
        Lane lane = lanes.computeIfAbsent(slot(request), slot -> new Lane());
        lane.queue.add(pending);
        if (lane.tryStart(settings.inFlight())) {
            schedule(lane);
        }
        return pending.await(settings.maxWait());
    }

    /** Sends one call with what the lane has queued, then schedules itself again; ends when the queue is empty. */
    private void send(Lane lane) {
        List<Pending> batch = lane.take(settings.maxBatch());
        if (batch.isEmpty()) {
            lane.running.decrementAndGet();
            // a Try queued after take() and before the decrement saw every call under way: pick it up here
            if (!lane.queue.isEmpty() && lane.tryStart(settings.inFlight())) {
                schedule(lane);
            }
            return;
        }
        batchSizes.record(batch.size());
        try {
            List<TryOutcome> outcomes = runner.run(batch.stream().map(p -> p.request).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result.complete(outcomes.get(i));
            }
        } catch (RuntimeException e) {
            if (batch.size() > 1 && !unreachable(e)) {
                // Redis answered with an error (say, one SKU's hash is corrupt) while deciding, before any write:
                // each Try goes again alone, and only the one that causes the error fails
                batch.forEach(this::runAlone);
            } else {
                batch.forEach(p -> p.result.completeExceptionally(e));
            }
        } catch (Error e) {
            batch.forEach(p -> p.result.completeExceptionally(e));
        }
        // again through the pool rather than in a loop, so that other slots' calls get their turn
        schedule(lane);
    }

    private void schedule(Lane lane) {
        try {
            senders.execute(() -> send(lane));
        } catch (RejectedExecutionException e) {
            // stopping: nothing will send what is queued
            failQueued(lane);
        }
    }

    private static void failQueued(Lane lane) {
        for (Pending p = lane.queue.poll(); p != null; p = lane.queue.poll()) {
            p.result.completeExceptionally(stopped());
        }
    }

    private static IllegalStateException stopped() {
        return new IllegalStateException("the Try coalescer has stopped");
    }

    private void runAlone(Pending pending) {
        try {
            pending.result.complete(runner.run(List.of(pending.request)).get(0));
        } catch (RuntimeException | Error e) {
            pending.result.completeExceptionally(e);
        }
    }

    /** Redis did not answer (connection lost, timeout): going again one by one would only wait longer. */
    private static boolean unreachable(RuntimeException e) {
        return e instanceof QueryTimeoutException || e instanceof DataAccessResourceFailureException;
    }

    /** Tries queued for a call, over all slots. */
    int waiting() {
        return lanes.values().stream().mapToInt(lane -> lane.queue.size()).sum();
    }

    private static int slot(TryRequest request) {
        return ClusterSlotHashUtil.calculateSlot(StockKeys.stock(request.lines().get(0).skuId()));
    }

    /** Stops the senders; Tries still waiting fail at once rather than after {@link TryCoalescing#maxWait()}. */
    @Override
    public void destroy() {
        if (senders != null) {
            stopped = true;
            senders.shutdownNow();
            lanes.values().forEach(TryCoalescer::failQueued);
        }
    }

    private static ThreadFactory senderThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "try-sender-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The Tries of one slot waiting for a call, and how many calls are under way. */
    private static final class Lane {
        final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
        final AtomicInteger running = new AtomicInteger();

        boolean tryStart(int limit) {
            for (int now = running.get(); now < limit; now = running.get()) {
                if (running.compareAndSet(now, now + 1)) {
                    return true;
                }
            }
            return false;
        }

        /** Up to {@code max} waiting Tries, oldest first, leaving out those whose callers gave up. */
        List<Pending> take(int max) {
            List<Pending> batch = new ArrayList<>(Math.min(max, 16));
            while (batch.size() < max) {
                Pending p = queue.poll();
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

    private static final class Pending {
        final TryRequest request;
        final CompletableFuture<TryOutcome> result = new CompletableFuture<>();
        volatile boolean abandoned;

        Pending(TryRequest request) {
            this.request = request;
        }

        TryOutcome await(Duration maxWait) {
            try {
                return result.get(maxWait.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                abandoned = true;
                throw new QueryTimeoutException("Try of reservation " + request.reservationId() + " waited longer than "
                        + maxWait + " for Redis");
            } catch (InterruptedException e) {
                abandoned = true;
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Redis", e);
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
    }
}
