package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.support.Coalescer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.stereotype.Component;

/**
 * Runs Tries through {@link TryScript}, gathering the ones that arrive together for the same cluster slot (so for
 * the same hot SKU) into one call of {@code try.lua} ({@link Coalescer}: no timer, at most
 * {@link TryCoalescing#inFlight()} calls under way per slot, at most {@link TryCoalescing#maxBatch()} Tries per
 * call). The script decides them one after the other, each all or nothing on its own, exactly as separate calls in
 * that order would; what is saved is the per-call cost, in Redis (one EVALSHA, one read and one write on the socket
 * for many Tries) and in the client.
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
    interface BatchRunner extends Coalescer.BatchRunner<TryRequest, TryOutcome> {
    }

    private final Coalescer<TryRequest, TryOutcome> coalescer;

    @Autowired
    public TryCoalescer(TryScript script, TryCoalescing settings, MeterRegistry meters) {
        this(script::run, settings, meters);
    }

    TryCoalescer(BatchRunner runner, TryCoalescing settings, MeterRegistry meters) {
        DistributionSummary batchSizes = DistributionSummary.builder("inventory.try.batch.size")
                .description("reservations decided by one call of try.lua")
                .register(meters);
        this.coalescer = new Coalescer<>("the Try coalescer", "try-sender",
                settings.gathering(), runner,
                TryCoalescer::slot, TryCoalescer::unreachable,
                (request, maxWait) -> new QueryTimeoutException("Try of reservation " + request.reservationId()
                        + " waited longer than " + maxWait + " for Redis"),
                batchSizes::record);
        Gauge.builder("inventory.try.waiting", coalescer, Coalescer::waiting)
                .description("Tries waiting for a call of try.lua")
                .register(meters);
    }

    /** Decides one reservation; blocks until its call has run. */
    public TryOutcome reserve(TryRequest request) {
        return coalescer.submit(request);
    }

    /** Redis did not answer (connection lost, timeout): going again one by one would only wait longer. */
    static boolean unreachable(RuntimeException e) {
        return e instanceof QueryTimeoutException || e instanceof DataAccessResourceFailureException;
    }

    /** Tries queued for a call, over all slots. */
    int waiting() {
        return coalescer.waiting();
    }

    private static Object slot(TryRequest request) {
        return ClusterSlotHashUtil.calculateSlot(StockKeys.stock(request.lines().get(0).skuId()));
    }

    /** Stops the senders; Tries still waiting fail at once rather than after {@link TryCoalescing#maxWait()}. */
    @Override
    public void destroy() {
        coalescer.close();
    }
}
