package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.support.Coalescer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.stereotype.Component;

/**
 * Runs the second phases of reservations Redis holds, gathering the Confirms that arrive together for the same
 * cluster slot (so for the same hot SKU) into one call of {@code confirm.lua}, and the Cancels into one call of
 * {@code cancel.lua} ({@link Coalescer}: no timer, at most {@link PhaseCoalescing#inFlight()} calls under way per
 * slot and phase, at most {@link PhaseCoalescing#maxBatch()} reservations per call). The script decides each
 * reservation on its own, driven by its own fence record, exactly as separate calls in that order would; one that
 * raises an error fails alone (the script answers FAILED for it).
 *
 * <p>When Redis cannot be reached (connection lost, timeout) a call fails every phase in it; when the call as a whole
 * fails otherwise, each phase is sent again alone. Both are safe: every phase is idempotent on its fence record, a
 * phase that ran answers ALREADY_APPLIED when it runs again, and the coordinator retries a phase that failed.
 */
@Component
class PhaseCoalescer implements DisposableBean {

    private final Coalescer<SecondPhaseScript.Call, SecondPhaseScript.Answer> confirms;
    private final Coalescer<SecondPhaseScript.Call, SecondPhaseScript.Answer> cancels;

    PhaseCoalescer(ConfirmScript confirmScript, CancelScript cancelScript, InventorySettings settings,
                   PhaseCoalescing coalescing, MeterRegistry meters) {
        Coalescer.Settings gathering = coalescing.gathering();
        this.confirms = coalescer(Phase.CONFIRM, gathering,
                calls -> confirmScript.run(calls, settings.fenceRetention()), meters);
        this.cancels = coalescer(Phase.CANCEL, gathering,
                calls -> cancelScript.run(calls, settings.fenceRetention()), meters);
    }

    private static Coalescer<SecondPhaseScript.Call, SecondPhaseScript.Answer> coalescer(
            Phase phase, Coalescer.Settings gathering,
            Coalescer.BatchRunner<SecondPhaseScript.Call, SecondPhaseScript.Answer> runner, MeterRegistry meters) {
        DistributionSummary sizes = DistributionSummary.builder("inventory.phase.batch.size")
                .description("reservations ended by one call of confirm.lua or cancel.lua")
                .tag("phase", phase.tag())
                .register(meters);
        Coalescer<SecondPhaseScript.Call, SecondPhaseScript.Answer> coalescer = new Coalescer<>(
                "the " + phase.tag() + " coalescer", phase.tag() + "-sender", gathering, runner,
                PhaseCoalescer::slot, TryCoalescer::unreachable,
                (call, maxWait) -> new QueryTimeoutException(phase.tag() + " of reservation " + call.reservationId()
                        + " waited longer than " + maxWait + " for Redis"),
                sizes::record);
        Gauge.builder("inventory.phase.waiting", coalescer, Coalescer::waiting)
                .description("second phases waiting for a call of confirm.lua or cancel.lua")
                .tag("phase", phase.tag())
                .register(meters);
        return coalescer;
    }

    /** {@code confirm.lua} for one line, in the call it shares with the Confirms of its slot under way now. */
    PhaseOutcome confirm(PhaseLine l, boolean takeUnrecorded) {
        return confirms.submit(ConfirmScript.call(l.skuId(), l.xid(), l.reservationId(), l.line().quantity(),
                l.userId(), takeUnrecorded)).get();
    }

    /** {@code cancel.lua} for one line, in the call it shares with the Cancels of its slot under way now. */
    PhaseOutcome cancel(PhaseLine l) {
        return cancels.submit(CancelScript.call(l.skuId(), l.xid(), l.reservationId())).get();
    }

    private static Object slot(SecondPhaseScript.Call call) {
        return ClusterSlotHashUtil.calculateSlot(StockKeys.stock(call.skuId()));
    }

    @Override
    public void destroy() {
        confirms.close();
        cancels.close();
    }
}
