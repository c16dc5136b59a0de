package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.allotment.ReserveLevels;
import io.github.flashstock.inventory.events.StockEventsWritten;
import io.github.flashstock.inventory.mysqlstore.MysqlPathLimit;
import io.github.flashstock.inventory.mysqlstore.MysqlReservations;
import io.github.flashstock.inventory.mysqlstore.ReserveMirror;
import io.github.flashstock.inventory.rebuild.StockRecovery;
import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.redis.RedisUnreachable;
import io.github.flashstock.inventory.stock.SalesRecord;
import io.github.flashstock.inventory.stock.StockCatalog;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
    private final RedisHealth redis;
    private final MysqlReservations mysql;
    private final MysqlPathLimit mysqlLimit;
    private final ReserveLevels reserves;
    private final ReserveMirror mirror;

    StockReservationAction(TryCoalescer tries, ConfirmScript confirmScript, CancelScript cancelScript,
                           SalesRecord sales, StockCatalog catalog, InventorySettings settings, MeterRegistry meters,
                           TryGate gate, SlotGroups slotGroups, ApplicationEventPublisher events,
                           StockRecovery recovery, RedisHealth redis, MysqlReservations mysql,
                           MysqlPathLimit mysqlLimit, ReserveLevels reserves, ReserveMirror mirror) {
        this.recovery = recovery;
        this.redis = redis;
        this.mysql = mysql;
        this.mysqlLimit = mysqlLimit;
        this.reserves = reserves;
        this.mirror = mirror;
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
                recordRefusal(context, reservationId, userId, lines, refusal);
                throw refusal.exception();
            }
            if (result instanceof TryOutcome.Reserved) {
                events.publishEvent(new StockEventsWritten(lines.lines().stream().map(StockLine::skuId).toList()));
            }
            return true;
        } catch (InventoryDegraded e) {
            outcome = "degraded";
            throw e;
        } finally {
            meters.counter("inventory.reservations", "outcome", outcome).increment();
            timing.stop(meters.timer("inventory.phase", "phase", "try"));
        }
    }

    /**
     * Records a refusal on every line of the reservation, so that a Confirm of it takes nothing whoever commits the
     * transaction afterwards (a caller that ignores the refusal, or one that attached this line to someone else's
     * transaction): a REFUSED record in Redis, where lines of an earlier slot group that reserved give their units
     * back at once, or a REFUSED ledger row in the MySQL store for lines it holds, while Redis cannot be reached, and
     * for a SKU being recovered (its Redis stock is about to be rebuilt from MySQL). Outcomes that reserve nothing
     * anywhere and need no record: a reservation cancelled first (its CANCELLED record says so) and an unknown SKU
     * (no Confirm can take units of it). A record that cannot be written is counted
     * ({@code inventory.refusals.unrecorded}) and logged; the refusal is answered all the same, and the usual
     * rollback of the transaction gives back whatever an earlier group holds.
     */
    private void recordRefusal(BusinessActionContext context, String reservationId, String userId,
                               ReservationLines lines, TryOutcome.Refusal refusal) {
        Optional<CancelScript.RecordedRefusal> inRedis = CancelScript.RecordedRefusal.of(refusal);
        boolean recovering = refusal instanceof TryOutcome.StaleSku;
        if (inRedis.isEmpty() && !recovering) {
            return;
        }
        String xid = context.getXid();
        for (StockLine line : lines.lines()) {
            try {
                boolean inMysql = recovering;
                if (!recovering) {
                    PhaseOutcome outcome;
                    try {
                        outcome = redis.call(() -> cancelScript.refuse(line.skuId(), xid, reservationId,
                                settings.fenceRetention(), inRedis.get()));
                    } catch (RedisUnreachable e) {
                        outcome = new PhaseOutcome.HeldInMysql(0);
                    }
                    if (outcome instanceof PhaseOutcome.Applied given) {
                        // an earlier group's units, back in stock: the ledger row the TRIED event made ends too
                        sales.cancelled(xid, reservationId, context.getBranchId(), line.skuId(), given.quantity(),
                                userId);
                        events.publishEvent(new StockEventsWritten(List.of(line.skuId())));
                    }
                    inMysql = outcome instanceof PhaseOutcome.HeldInMysql;
                }
                if (inMysql) {
                    mysql.refuse(xid, reservationId, context.getBranchId(), userId, line,
                            MysqlReservations.refusalName(refusal));
                    mirror.soon();
                }
            } catch (RuntimeException e) {
                meters.counter("inventory.refusals.unrecorded").increment();
                log.error("the refusal of reservation {} could not be recorded for SKU {}: a commit of its"
                        + " transaction would find no record there: {}", reservationId, line.skuId(), e.toString());
            }
        }
    }

    /**
     * One group's Try: in Redis, one script, through the circuit breaker. The MySQL store takes it instead when Redis
     * could not be asked (the breaker is open, or the client had no connection: the call was never sent, so nothing
     * can have been reserved in Redis), and when Redis refused for want of stock while the SKU's reserve has units.
     * A call that failed after it may have reached Redis fails the Try (503): its global transaction rolls back and
     * the Cancel releases whatever landed. A SKU Redis cannot sell from as it is, stale (its Redis server restarted
     * or failed over) or missing though MySQL knows it (Redis lost it, or never had it), is handed to
     * {@link StockRecovery}, which builds it from MySQL once nothing of the past can still arrive; meanwhile its
     * reserve sells, if it has units, and the Try is refused otherwise.
     */
    private TryOutcome tryGroup(BusinessActionContext context, String reservationId, String userId,
                                List<StockLine> group) {
        TryRequest request = new TryRequest(context.getXid(), reservationId, context.getBranchId(), userId, group);
        TryOutcome result;
        try {
            result = redis.call(() -> tries.reserve(request));
        } catch (RedisUnreachable e) {
            if (!e.notSent()) {
                throw e;
            }
            return inMysql(request, "redis_unreachable");
        }
        if (result instanceof TryOutcome.UnknownSku unknown && catalog.knows(unknown.skuId())) {
            result = new TryOutcome.StaleSku(unknown.skuId());
        }
        if (result instanceof TryOutcome.StaleSku stale) {
            recovery.request(stale.skuId());
            if (reserves.mayHave(group)) {
                try {
                    TryOutcome fromReserve = inMysql(request, "redis_recovering");
                    if (!(fromReserve instanceof TryOutcome.InsufficientStock)) {
                        return fromReserve;
                    }
                } catch (InventoryDegraded e) {
                    // the reserve cannot take it either: the SKU is being recovered, which is the answer
                }
            }
            return result;
        }
        if (result instanceof TryOutcome.InsufficientStock redisShort && reserves.mayHave(group)) {
            TryOutcome fromReserve = inMysql(request, "redis_sold_out");
            if (fromReserve instanceof TryOutcome.InsufficientStock reserveShort) {
                // neither store alone has enough: the answer names what both have of the SKU Redis was short of
                long reserve = reserveShort.skuId().equals(redisShort.skuId()) ? reserveShort.available() : 0;
                return new TryOutcome.InsufficientStock(redisShort.skuId(), redisShort.requested(),
                        redisShort.available() + reserve);
            }
            return fromReserve;
        }
        return result;
    }

    /**
     * The Try in the MySQL store, within its rate limit. Counted in {@code inventory.fallback.tries} by outcome and
     * cause (redis_unreachable, redis_recovering, redis_sold_out).
     */
    private TryOutcome inMysql(TryRequest request, String cause) {
        String outcome = "error";
        try {
            if (!mysqlLimit.tryAcquire()) {
                outcome = "rate_limited";
                throw new InventoryDegraded(null, "the MySQL store takes at most " + mysqlLimit.perSecond()
                        + " Tries per second while Redis cannot take them, and that many came this second; nothing"
                        + " was reserved, try again in a moment");
            }
            TryOutcome result = mysql.reserve(request, !"redis_unreachable".equals(cause));
            outcome = result.tag();
            if (result instanceof TryOutcome.Reserved) {
                mirror.soon();
            }
            return result;
        } catch (InventoryDegraded e) {
            if (!outcome.equals("rate_limited")) {
                outcome = "degraded";
            }
            throw e;
        } finally {
            meters.counter("inventory.fallback.tries", "outcome", outcome, "cause", cause).increment();
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

    /** The two second phases; {@link #tag()} is the name in metrics and logs. */
    enum Phase {
        CONFIRM, CANCEL;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Every line goes to the store that holds it: first Redis (its fence record says whether Redis holds the line,
     * or the MySQL store does); while Redis cannot be asked, the MySQL store ends the lines it holds, and a line it
     * does not hold waits for Redis. Any failure, or a line that must wait, returns false, and Seata retries the
     * whole phase: the scripts, the ledger and the MySQL store make every step safe to repeat.
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
                LineResult result = secondPhaseLine(phase, context, line, reservationId, userId);
                PhaseOutcome outcome = result.outcome();
                meters.counter("inventory.phase.outcomes", "phase", phase.tag(), "outcome", outcome.tag(),
                        "store", result.store()).increment();
                if (outcome instanceof PhaseOutcome.Refused) {
                    confirmOfRefused(context, reservationId, userId, line, result.store());
                    continue;
                }
                if (result.mysql()) {
                    if (outcome instanceof PhaseOutcome.NoRecord) {
                        log.info("empty rollback for SKU {}: tombstones written in Redis and MySQL", line.skuId());
                    } else if (outcome instanceof PhaseOutcome.EndedOtherwise) {
                        log.error("{} refused for SKU {} by the MySQL store: the reservation already ended the other"
                                + " way", phase.tag(), line.skuId());
                    }
                    mirror.soon();
                    continue;
                }
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
                    record(phase, context, reservationId, line.skuId(), outcome.quantity(), userId);
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

    /**
     * The coordinator committed a transaction whose Try of this reservation this service refused: nothing was taken
     * (the refusal's record says so), and the coordinator is answered with success, since no retry could change that.
     * Counted ({@code inventory.confirm-of-refused-try}), logged, and kept in the ledger (the REFUSED row's
     * {@code refused_confirm_at}), which the reconciler reports as {@code CONFIRM_OF_REFUSED_TRY}.
     */
    private void confirmOfRefused(BusinessActionContext context, String reservationId, String userId, StockLine line,
                                  String store) {
        meters.counter("inventory.confirm-of-refused-try", "store", store).increment();
        log.error("confirm of a Try this service refused, SKU {} ({} unit(s) asked): the transaction was committed"
                + " after a refusal; nothing taken; recorded for reconciliation (CONFIRM_OF_REFUSED_TRY)",
                line.skuId(), line.quantity());
        sales.confirmOfRefused(context.getXid(), reservationId, context.getBranchId(), line.skuId(), line.quantity(),
                store.toUpperCase(Locale.ROOT), userId);
    }

    /** What the phase did to one line, and in which store. */
    private record LineResult(PhaseOutcome outcome, boolean mysql) {

        String store() {
            return mysql ? "mysql" : "redis";
        }
    }

    /**
     * One line of a second phase, in the store that holds it.
     *
     * @throws RedisUnreachable Redis cannot be asked and the MySQL store does not hold the line: it waits for Redis
     */
    private LineResult secondPhaseLine(Phase phase, BusinessActionContext context, StockLine line, String reservationId,
                                       String userId) {
        String xid = context.getXid();
        PhaseOutcome outcome;
        try {
            outcome = redis.call(() -> script(phase, line, xid, reservationId, userId, false));
        } catch (RedisUnreachable e) {
            Optional<PhaseOutcome> held = inMysql(phase, context, line, reservationId, userId, false);
            if (held.isPresent()) {
                return new LineResult(held.get(), true);
            }
            throw e;
        }
        if (outcome instanceof PhaseOutcome.HeldInMysql) {
            return new LineResult(inMysql(phase, context, line, reservationId, userId, false).orElseThrow(() ->
                    new IllegalStateException("Redis says the MySQL store holds reservation " + reservationId + " of"
                            + " SKU " + line.skuId() + ", and the ledger has no row of it")), true);
        }
        if (outcome instanceof PhaseOutcome.Unrecorded) {
            // no record in Redis: the Try ran in the MySQL store, or Redis never had it or lost it
            Optional<PhaseOutcome> held = inMysql(phase, context, line, reservationId, userId, false);
            if (held.isPresent()) {
                return new LineResult(held.get(), true);
            }
            return new LineResult(redis.call(() -> script(phase, line, xid, reservationId, userId, true)), false);
        }
        if (outcome instanceof PhaseOutcome.NoRecord && phase == Phase.CANCEL) {
            // Redis's tombstone is written; the MySQL store cancels what it holds, or writes its own tombstone
            PhaseOutcome redisOutcome = outcome;
            return inMysql(phase, context, line, reservationId, userId, true).map(o -> new LineResult(o, true))
                    .orElseGet(() -> new LineResult(redisOutcome, false));
        }
        return new LineResult(outcome, false);
    }

    private Optional<PhaseOutcome> inMysql(Phase phase, BusinessActionContext context, StockLine line,
                                           String reservationId, String userId, boolean fence) {
        return switch (phase) {
            case CONFIRM -> mysql.confirm(context.getXid(), reservationId, line);
            case CANCEL -> mysql.cancel(context.getXid(), reservationId, context.getBranchId(), userId, line, fence);
        };
    }

    private PhaseOutcome script(Phase phase, StockLine line, String xid, String reservationId, String userId,
                                boolean recover) {
        return switch (phase) {
            case CONFIRM -> confirmScript.run(line.skuId(), xid, reservationId, settings.fenceRetention(),
                    line.quantity(), userId, recover);
            case CANCEL -> cancelScript.run(line.skuId(), xid, reservationId, settings.fenceRetention());
        };
    }

    private void record(Phase phase, BusinessActionContext context, String reservationId, String skuId, long units,
                        String userId) {
        switch (phase) {
            case CONFIRM -> sales.confirmed(context.getXid(), reservationId, context.getBranchId(), skuId, units,
                    userId);
            case CANCEL -> sales.cancelled(context.getXid(), reservationId, context.getBranchId(), skuId, units,
                    userId);
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
