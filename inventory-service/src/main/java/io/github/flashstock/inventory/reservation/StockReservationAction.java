package io.github.flashstock.inventory.reservation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.stereotype.Component;

/**
 * The TCC branch as Seata calls it: it puts the xid and reservation id on every log line, times the phase, and hands
 * the reservation to {@link StoreRouter}, which picks the store. A refused Try throws {@link TryRefused}; a second
 * phase that failed answers false, and Seata retries it (every step is safe to repeat).
 */
@Component
class StockReservationAction implements ReservationAction {

    private static final Logger log = LoggerFactory.getLogger(StockReservationAction.class);

    private final StoreRouter stores;
    private final TryGate gate;
    private final MeterRegistry meters;

    StockReservationAction(StoreRouter stores, TryGate gate, MeterRegistry meters) {
        this.stores = stores;
        this.gate = gate;
        this.meters = meters;
    }

    @Override
    public boolean reserve(BusinessActionContext context,
                           @BusinessActionContextParameter(paramName = "reservationId") String reservationId,
                           @BusinessActionContextParameter(paramName = "userId") String userId,
                           @BusinessActionContextParameter(isParamInProperty = true) ReservationLines lines) {
        Timer.Sample timing = Timer.start(meters);
        String outcome = "error";
        try (var ignored = logContext(context.getXid(), reservationId)) {
            gate.beforeScript(context.getXid(), reservationId);
            TryOutcome result = stores.reserve(context.getXid(), context.getBranchId(), reservationId, userId, lines);
            outcome = result.tag();
            log.debug("try {}: {}", outcome, result);
            if (result instanceof TryOutcome.Refusal refusal) {
                throw new TryRefused(refusal);
            }
            return true;
        } finally {
            meters.counter("inventory.reservations", "outcome", outcome).increment();
            timing.stop(meters.timer("inventory.phase", "phase", "try"));
        }
    }

    @Override
    public boolean confirm(BusinessActionContext context) {
        return secondPhase(context, Phase.CONFIRM);
    }

    @Override
    public boolean cancel(BusinessActionContext context) {
        return secondPhase(context, Phase.CANCEL);
    }

    private boolean secondPhase(BusinessActionContext context, Phase phase) {
        Timer.Sample timing = Timer.start(meters);
        String reservationId = context.getActionContext("reservationId", String.class);
        boolean done = false;
        try (var ignored = logContext(context.getXid(), reservationId)) {
            stores.end(phase, context.getXid(), context.getBranchId(), reservationId,
                    context.getActionContext("userId", String.class),
                    ReservationLines.decode(context.getActionContext("lines", String.class)));
            done = true;
            return true;
        } catch (RuntimeException e) {
            log.warn("{} failed, Seata will retry: {}", phase.tag(), e.toString());
            return false;
        } finally {
            meters.counter("inventory.phases", "phase", phase.tag(), "result", done ? "done" : "retry").increment();
            timing.stop(meters.timer("inventory.phase", "phase", phase.tag()));
        }
    }

    /** A scope whose end needs no exception handling. */
    private interface LogScope extends AutoCloseable {
        @Override
        void close();
    }

    /** Puts xid and reservation id on every log line of the phase. */
    private static LogScope logContext(String xid, String reservationId) {
        MDC.put("xid", xid);
        MDC.put("reservationId", reservationId);
        return () -> {
            MDC.remove("xid");
            MDC.remove("reservationId");
        };
    }
}
