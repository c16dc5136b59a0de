package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.events.StockEventsWritten;
import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.redis.RedisUnreachable;
import io.github.flashstock.inventory.reservation.CancelScript;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.StockLine;
import io.github.flashstock.inventory.stock.UnmirroredRow;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Makes Redis reflect the reservations the MySQL store holds ({@code lua/mirror.lua}): each ledger row of the MySQL
 * store whose state Redis does not reflect yet ({@code redis_mirrored = 0}) gets its fence record in Redis, and its
 * units count towards the buyer's purchase limit there; a Redis reservation under the same ids (a retried Try that
 * reached Redis too) is released, and a sale Redis made of a reservation the MySQL store sold too is returned. A
 * refusal the MySQL store recorded (a REFUSED row) becomes Redis's REFUSED record, which releases a Redis reservation
 * of the same Try that landed late and refuses one that lands later (once the transaction has ended, no phase would
 * give its units back); a reservation of the MySQL store that Redis saw end without a sale is cancelled. Runs every
 * {@code inventory.mysql-store.mirror-interval} and right after the MySQL store took or ended a reservation;
 * does nothing while Redis is out of reach. Any instance may mirror any row: the script converges, so a row mirrored
 * twice changes nothing the second time.
 *
 * <p>It is also what tells the Redis breaker that Redis is back ({@link RedisHealth}): when the breaker starts
 * testing (half-open), Tries still go to the MySQL store while this mirrors every row waiting, and only then sends
 * the probe calls that close the breaker; once closed, it mirrors once more (rows written in that last moment). So
 * when Redis sells again after an outage, it counts what buyers bought in the MySQL store meanwhile. In a split view
 * (another instance still selling from the MySQL store while this one sells from Redis), a row is counted in Redis
 * only from the next round: a buyer who buys in the MySQL store through one instance and then, within that moment, in
 * Redis through another can exceed the per-user limit by the units bought in the MySQL store (docs/design.md, "When
 * Redis is down").
 */
@Component
class MysqlStoreMirror implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(MysqlStoreMirror.class);
    private static final int BATCH = 500;
    /** Redis's own records of a reservation whose phase came and sold nothing: no phase will reach the MySQL store. */
    private static final Set<String> ENDED_WITHOUT_SALE = Set.of("CANCELLED", "REFUSED");

    private final StockLedgerMapper ledger;
    private final MysqlReservations reservations;
    private final MirrorScript script;
    private final RedisHealth redis;
    private final InventorySettings settings;
    private final MeterRegistry meters;
    private final ApplicationEventPublisher events;
    private final RedisStockReader reader;
    private final long intervalMillis;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mysql-store-mirror");
        t.setDaemon(true);
        return t;
    });

    MysqlStoreMirror(StockLedgerMapper ledger, MysqlReservations reservations, MirrorScript script, RedisHealth redis,
                     InventorySettings settings, MeterRegistry meters, ApplicationEventPublisher events,
                     RedisStockReader reader,
                     @Value("${inventory.mysql-store.mirror-interval:250ms}") Duration interval) {
        this.reader = reader;
        this.ledger = ledger;
        this.reservations = reservations;
        this.script = script;
        this.redis = redis;
        this.settings = settings;
        this.meters = meters;
        this.events = events;
        this.intervalMillis = interval.toMillis();
        redis.whenHealthyAgain(this::soon);
        redis.whenTesting(() -> submit(this::catchUpAndProbe));
    }

    @EventListener(ApplicationReadyEvent.class)
    void started() {
        worker.scheduleWithFixedDelay(this::scheduledRound, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** A round as soon as the worker is free (several requests meanwhile make one round). */
    public void soon() {
        if (queued.compareAndSet(false, true)) {
            if (!submit(() -> {
                queued.set(false);
                scheduledRound();
            })) {
                queued.set(false);
            }
        }
    }

    private boolean submit(Runnable work) {
        try {
            worker.execute(work);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false; // stopping
        }
    }

    private void scheduledRound() {
        if (redis.testing()) {
            catchUpAndProbe(); // the breaker waits for probes: whoever started them may have given up
            return;
        }
        try {
            if (redis.healthy()) {
                round(redis::call);
            }
        } catch (RedisUnreachable e) {
            log.debug("mirroring the MySQL store's reservations waits for Redis: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.warn("mirroring the MySQL store's reservations failed, next round in {} ms: {}", intervalMillis,
                    e.toString());
        }
    }

    /**
     * The breaker tests Redis: mirror everything waiting straight to Redis (not through the breaker, which still
     * sends Tries to the MySQL store), then probe until the breaker has decided. A failure anywhere leaves the
     * decision to the probes (or the next test).
     */
    private void catchUpAndProbe() {
        try {
            int mirrored = round(Supplier::get);
            log.info("Redis answers again: {} reservation line(s) of the MySQL store mirrored before it sells again",
                    mirrored);
        } catch (RuntimeException e) {
            log.info("Redis does not answer yet: {}", e.toString());
        }
        while (redis.testing()) {
            try {
                redis.probe(() -> {
                    reader.ping();
                    return null;
                });
            } catch (RedisUnreachable e) {
                if (e.getCause() instanceof io.github.resilience4j.circuitbreaker.CallNotPermittedException) {
                    return; // every probe the breaker permits is under way or it decided: nothing more to send
                }
                log.debug("Redis probe failed: {}", e.toString());
            } catch (RuntimeException e) {
                // Redis answered with an error: it serves again, the breaker counts the probe as a success
                log.debug("Redis probe answered: {}", e.toString());
            }
        }
    }

    /** Mirrors every row waiting, through the breaker while it is closed. @return rows mirrored */
    public int round() {
        return redis.healthy() ? round(redis::call) : 0;
    }

    /** Mirrors every row waiting, in batches, each call made through {@code calls}. @return rows mirrored */
    private synchronized int round(Calls calls) {
        int mirrored = 0;
        List<UnmirroredRow> rows;
        do {
            rows = ledger.unmirrored(BATCH);
            int before = mirrored;
            for (UnmirroredRow row : rows) {
                if (mirror(row, calls)) {
                    mirrored++;
                }
            }
            if (mirrored == before) {
                break; // nothing of this batch could be mirrored now (SKUs Redis lacks): the next round looks again
            }
        } while (rows.size() == BATCH);
        return mirrored;
    }

    /** How a round sends its Redis calls: through the breaker, or straight. */
    private interface Calls {
        <T> T run(Supplier<T> call);
    }

    private boolean mirror(UnmirroredRow row, Calls calls) {
        MirrorScript.Outcome outcome;
        if ("REFUSED".equals(row.state())) {
            CancelScript.RecordedRefusal refusal = recorded(row);
            outcome = calls.run(() -> script.runRefused(row.skuId(), row.xid(), row.reservationKey(), row.quantity(),
                    row.userId(), refusal, settings.fenceRetention()));
        } else {
            outcome = calls.run(() -> script.run(row.skuId(), row.xid(), row.reservationKey(), row.quantity(),
                    row.userId(), row.state(), settings.fenceRetention()));
        }
        meters.counter("inventory.mysql-store.mirrored", "outcome", outcome.code().name().toLowerCase(Locale.ROOT))
                .increment();
        switch (outcome.code()) {
            case UNKNOWN_SKU -> {
                return false;
            }
            case DUPLICATE_RELEASED -> {
                log.warn("reservation {} of SKU {} was {} by the MySQL store and held by Redis as well (a Try that"
                        + " reached Redis late, or a retried one): Redis's units were released, the MySQL store's {}"
                        + " stands", row.reservationKey(), row.skuId(),
                        "REFUSED".equals(row.state()) ? "refused" : "held",
                        "REFUSED".equals(row.state()) ? "refusal" : "reservation");
                events.publishEvent(new StockEventsWritten(List.of(row.skuId())));
            }
            case SALE_RETURNED -> {
                log.warn("reservation {} of SKU {} was confirmed by both stores (the MySQL store's Confirm while Redis was"
                        + " out of reach, a retried Confirm in Redis after a late Try had landed there): Redis's sale was"
                        + " returned to its available stock, the MySQL store's sale stands", row.reservationKey(),
                        row.skuId());
                meters.counter("inventory.mysql-store.sales-returned").increment();
                events.publishEvent(new StockEventsWritten(List.of(row.skuId())));
            }
            case ENDED_IN_REDIS -> {
                if ("TRIED".equals(row.state()) && calls.run(() -> reader.fenceState(row.skuId(), row.xid(),
                        row.reservationKey())).filter(ENDED_WITHOUT_SALE::contains).isPresent()) {
                    cancelLateTry(row);
                    return true;
                }
                log.info("reservation {} of SKU {}: Redis's own reservation under the same ids had ended already;"
                        + " nothing mirrored", row.reservationKey(), row.skuId());
            }
            case MIRRORED -> {
            }
        }
        ledger.mirrored(row.id(), row.state());
        return true;
    }

    /**
     * A reservation the MySQL store holds that Redis has seen end without a sale: Redis's own record under the same
     * ids is CANCELLED (the Cancel ran there) or REFUSED (the caller's retry of the Try was refused there, so the
     * transaction's Cancel ends there and a Confirm takes nothing), while the MySQL store's Try of an earlier attempt,
     * its answer lost, landed after the phase had come and gone. No phase will reach it, so it is cancelled here:
     * its units go back to the allotment, and the next round mirrors the CANCELLED row.
     */
    private void cancelLateTry(UnmirroredRow row) {
        StockLine line = new StockLine(row.skuId(), Math.toIntExact(row.quantity()));
        Optional<PhaseOutcome> outcome = reservations.cancel(row.xid(), row.reservationKey(), 0, row.userId(), line,
                false);
        meters.counter("inventory.mysql-store.late-tries-cancelled").increment();
        log.warn("reservation {} of SKU {} was taken by the MySQL store after Redis had ended it without a sale"
                + " (cancelled or refused there): cancelled now, {} unit(s) back in the allotment ({})",
                row.reservationKey(), row.skuId(), row.quantity(), outcome.map(Object::toString).orElse("no row"));
    }

    /**
     * The refusal of a REFUSED row as Redis records it: the figures as they stand now (the MySQL store answers a
     * replay of the Try the same way).
     */
    private CancelScript.RecordedRefusal recorded(UnmirroredRow row) {
        TryOutcome refusal = reservations.refusedAsItStands(row.xid(), row.reservationKey(), row.userId(),
                new StockLine(row.skuId(), Math.toIntExact(row.quantity())), row.refusal());
        return CancelScript.RecordedRefusal.of(refusal)
                .orElseGet(() -> new CancelScript.RecordedRefusal(refusal.code(), row.skuId(), 0, 0));
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
