package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.events.StockEventsWritten;
import io.github.flashstock.inventory.reservation.CancelScript;
import io.github.flashstock.inventory.reservation.ConfirmScript;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryCoalescer;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.SalesRecord;
import io.github.flashstock.inventory.stock.StockCatalog;
import io.github.flashstock.inventory.stock.StockRecovery;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

@Component
class StockReservationAction implements ReservationAction {

    private static final Logger log = LoggerFactory.getLogger(StockReservationAction.class);

    private final TryCoalescer tries;
    private final ConfirmScript confirmScript;
    private final CancelScript cancelScript;
    private final SalesRecord sales;
    private final StockCatalog catalog;
    private final InventorySettings settings;
    private final MeterRegistry meters;
    private final TryGate gate;
    private final SlotGroups slotGroups;
    private final ApplicationEventPublisher events;
    private final StockRecovery recovery;

    StockReservationAction(TryCoalescer tries, ConfirmScript confirmScript, CancelScript cancelScript,
                           SalesRecord sales, StockCatalog catalog, InventorySettings settings, MeterRegistry meters,
                           TryGate gate, SlotGroups slotGroups, ApplicationEventPublisher events,
                           StockRecovery recovery) {
        this.recovery = recovery;
        this.tries = tries;
        this.confirmScript = confirmScript;
        this.cancelScript = cancelScript;
        this.sales = sales;
        this.catalog = catalog;
        this.settings = settings;
        this.meters = meters;
        this.gate = gate;
        this.slotGroups = slotGroups;
        this.events = events;
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
            // One script per slot group (one group on a standalone Redis). When a later group is refused, the
            // earlier ones stay reserved and the Try throws: the global rollback's Cancel releases them.
            TryOutcome result = new TryOutcome.AlreadyReserved();
            for (List<StockLine> group : slotGroups.of(lines.lines())) {
                TryOutcome groupResult = tryGroup(context, reservationId, userId, group);
                if (!(groupResult instanceof TryOutcome.AlreadyReserved)) {
                    result = groupResult;
                }
                if (groupResult instanceof TryOutcome.Refusal) {
                    break;
                }
            }
            outcome = result.tag();
            log.debug("try {}: {}", outcome, result);
            if (result instanceof TryOutcome.Refusal refusal) {
                throw refusal.exception();
            }
            if (result instanceof TryOutcome.Reserved) {
                events.publishEvent(new StockEventsWritten(lines.lines().stream().map(StockLine::skuId).toList()));
            }
            return true;
        } finally {
            meters.counter("inventory.reservations", "outcome", outcome).increment();
            timing.stop(meters.timer("inventory.phase", "phase", "try"));
        }
    }

    /**
     * One script. A SKU Redis cannot sell from as it is, stale (its Redis server restarted or failed over) or
     * missing though MySQL knows it (Redis lost it, or never had it), is handed to {@link StockRecovery}, which
     * builds it from MySQL once nothing of the past can still arrive, and the Try is refused meanwhile.
     */
    private TryOutcome tryGroup(BusinessActionContext context, String reservationId, String userId,
                                List<StockLine> group) {
        TryRequest request = new TryRequest(context.getXid(), reservationId, context.getBranchId(), userId, group);
        TryOutcome result = tries.reserve(request);
        if (result instanceof TryOutcome.UnknownSku unknown && catalog.knows(unknown.skuId())) {
            result = new TryOutcome.StaleSku(unknown.skuId());
        }
        if (result instanceof TryOutcome.StaleSku stale) {
            recovery.request(stale.skuId());
        }
        return result;
    }

    @Override
    public boolean confirm(BusinessActionContext context) {
        return secondPhase(context, Phase.CONFIRM);
    }

    @Override
    public boolean cancel(BusinessActionContext context) {
        return secondPhase(context, Phase.CANCEL);
    }

    /** The two second phases; {@link #tag()} is the name in metrics and logs. */
    enum Phase {
        CONFIRM, CANCEL;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Runs the phase's script for every line, then records the result in MySQL. Any failure returns false, and
     * Seata retries the whole phase: the scripts and the ledger make every step safe to repeat.
     */
    private boolean secondPhase(BusinessActionContext context, Phase phase) {
        Timer.Sample timing = Timer.start(meters);
        String xid = context.getXid();
        String reservationId = context.getActionContext("reservationId", String.class);
        String encoded = context.getActionContext("lines", String.class);
        String userId = context.getActionContext("userId", String.class);
        boolean done = false;
        try (var ignored = logContext(xid, reservationId)) {
            for (StockLine line : ReservationLines.decode(encoded).lines()) {
                PhaseOutcome outcome = script(phase, line, xid, reservationId, userId);
                meters.counter("inventory.phase.outcomes", "phase", phase.tag(), "outcome", outcome.tag()).increment();
                if (outcome instanceof PhaseOutcome.Recovered) {
                    log.warn("confirm found no reservation record for SKU {} (the Try never reached Redis, or Redis"
                            + " lost it): the committed {} unit(s) were taken from available stock", line.skuId(),
                            outcome.quantity());
                } else if (outcome instanceof PhaseOutcome.Oversold) {
                    log.error("confirm found no reservation record for SKU {} and fewer than {} unit(s) available:"
                            + " they were sold again; recorded for reconciliation (OVERSOLD_CONFIRM)", line.skuId(),
                            outcome.quantity());
                }
                if (outcome instanceof PhaseOutcome.Applied || outcome instanceof PhaseOutcome.Recovered
                        || outcome.quantity() > 0 && outcome instanceof PhaseOutcome.AlreadyApplied) {
                    // also on a replay: the MySQL step of an earlier attempt may have failed after the script ran
                    record(phase, context, reservationId, line.skuId(), outcome.quantity());
                    if (!(outcome instanceof PhaseOutcome.AlreadyApplied)) {
                        events.publishEvent(new StockEventsWritten(List.of(line.skuId())));
                    }
                } else if (outcome instanceof PhaseOutcome.NoRecord) {
                    if (phase == Phase.CONFIRM) {
                        log.error("confirm found neither a reservation record nor stock for SKU {} in Redis;"
                                + " left for reconciliation (REDIS_MISSING)", line.skuId());
                    } else {
                        log.info("empty rollback for SKU {}: tombstone written", line.skuId());
                    }
                } else if (outcome instanceof PhaseOutcome.EndedOtherwise) {
                    log.error("{} refused for SKU {}: the reservation already ended the other way", phase.tag(),
                            line.skuId());
                }
            }
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

    private PhaseOutcome script(Phase phase, StockLine line, String xid, String reservationId, String userId) {
        return switch (phase) {
            case CONFIRM -> confirmScript.run(line.skuId(), xid, reservationId, settings.fenceRetention(),
                    line.quantity(), userId);
            case CANCEL -> cancelScript.run(line.skuId(), xid, reservationId, settings.fenceRetention());
        };
    }

    private void record(Phase phase, BusinessActionContext context, String reservationId, String skuId, long units) {
        switch (phase) {
            case CONFIRM -> sales.confirmed(context.getXid(), reservationId, context.getBranchId(), skuId, units);
            case CANCEL -> sales.cancelled(context.getXid(), reservationId, context.getBranchId(), skuId, units);
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
