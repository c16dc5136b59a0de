package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.events.StockEventsWritten;
import io.github.flashstock.inventory.redis.RedisUnreachable;
import io.github.flashstock.inventory.stock.RebuildNeeded;
import io.github.flashstock.inventory.stock.SalesRecord;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Picks the store for every Try and every line of a second phase, and keeps MySQL's sales record and the stock
 * events in step with what the stores did.
 * <ul>
 *   <li>A Try goes to Redis first, one script per slot group. The MySQL store takes a group instead when Redis could
 *       not be asked (the breaker is open, or the client had no connection: nothing was sent, so nothing can have
 *       been reserved in Redis), when Redis refused for want of stock while the SKU's allotment has units, and when
 *       the SKU is stale in Redis (a rebuild is asked for; meanwhile its allotment sells, if it has units). A call
 *       that failed after it may have reached Redis fails the Try: its global transaction rolls back, and the Cancel
 *       gives back whatever landed.</li>
 *   <li>A second phase asks Redis first for every line: its fence record says whether Redis holds the line or the
 *       MySQL store does. A Confirm of a line Redis has no record of (nor the SKU: Redis lost it) goes to the MySQL
 *       store if it holds the line, else it is sold as the coordinator committed it and recorded in MySQL. While Redis cannot be asked, the MySQL store ends the lines it holds, and a line it does
 *       not hold waits for Redis (the phase fails and Seata retries it; every step is safe to repeat).</li>
 * </ul>
 */
@Component
class StoreRouter {

    private static final Logger log = LoggerFactory.getLogger(StoreRouter.class);

    private final RedisStore redis;
    private final ReservationStore mysql;
    private final SlotGroups slotGroups;
    private final StockCatalog catalog;
    private final AllotmentLevels allotments;
    private final SalesRecord sales;
    private final ApplicationEventPublisher events;
    private final MeterRegistry meters;

    StoreRouter(RedisStore redis, @Qualifier(ReservationStore.MYSQL) ReservationStore mysql, SlotGroups slotGroups,
                StockCatalog catalog, AllotmentLevels allotments, SalesRecord sales, ApplicationEventPublisher events,
                MeterRegistry meters) {
        this.redis = redis;
        this.mysql = mysql;
        this.slotGroups = slotGroups;
        this.catalog = catalog;
        this.allotments = allotments;
        this.sales = sales;
        this.events = events;
        this.meters = meters;
    }

    /**
     * The Try of a whole reservation, one slot group after the other (one group on a standalone Redis). At the first
     * refused group the refusal is recorded on every line ({@link #recordRefusal}) and returned.
     */
    TryOutcome reserve(String xid, long branchId, String reservationId, String userId, ReservationLines lines) {
        TryOutcome result = new TryOutcome.AlreadyReserved();
        for (List<StockLine> group : slotGroups.of(lines.lines())) {
            TryOutcome groupResult = tryGroup(new TryRequest(xid, reservationId, branchId, userId, group));
            if (groupResult instanceof TryOutcome.InsufficientStock && group.size() > 1
                    && allotments.mayHave(group)) {
                groupResult = lineByLine(xid, branchId, reservationId, userId, group);
            }
            if (groupResult.code() != TryOutcome.Code.ALREADY_RESERVED) {
                result = groupResult;
            }
            if (groupResult instanceof TryOutcome.Refusal refusal) {
                recordRefusal(xid, branchId, reservationId, userId, lines, refusal);
                return refusal;
            }
        }
        if (result.code() == TryOutcome.Code.RESERVED) {
            events.publishEvent(new StockEventsWritten(lines.lines().stream().map(StockLine::skuId).toList()));
        }
        return result;
    }

    /**
     * A group of several SKUs that neither store could take whole (Redis short of one SKU, the allotment of another):
     * each line from the store that has it, one after the other, as the groups of a reservation on a Redis Cluster go.
     * Nothing of the group was taken by the whole-group attempts (each refused all or nothing), so this is the group's
     * only Try. The first line refused is the reservation's refusal, true of that SKU; the lines taken before it are
     * given back by the refusal's records ({@link #recordRefusal}), as an earlier slot group's are.
     */
    private TryOutcome lineByLine(String xid, long branchId, String reservationId, String userId,
                                  List<StockLine> group) {
        TryOutcome result = new TryOutcome.AlreadyReserved();
        for (StockLine line : group) {
            TryOutcome lineResult = tryGroup(new TryRequest(xid, reservationId, branchId, userId, List.of(line)));
            if (lineResult instanceof TryOutcome.Refusal) {
                return lineResult;
            }
            if (lineResult.code() != TryOutcome.Code.ALREADY_RESERVED) {
                result = lineResult;
            }
        }
        meters.counter("inventory.tries.line-by-line").increment();
        return result;
    }

    private TryOutcome tryGroup(TryRequest request) {
        TryOutcome result;
        try {
            result = redis.reserve(request, TryRoute.REDIS);
        } catch (RedisUnreachable e) {
            if (!e.notSent()) {
                throw e;
            }
            return mysql.reserve(request, TryRoute.REDIS_UNREACHABLE);
        }
        switch (result.code()) {
            case UNKNOWN_SKU:
                String unknown = ((TryOutcome.UnknownSku) result).skuId();
                if (!catalog.knows(unknown)) {
                    return result;
                }
                // MySQL knows it and Redis lost it: stale
                return stale(request, new TryOutcome.StaleSku(unknown));
            case STALE_SKU:
                return stale(request, (TryOutcome.StaleSku) result);
            case BOOKED:
                return bookedEarlier(request);
            case INSUFFICIENT_STOCK:
                TryOutcome.InsufficientStock redisShort = (TryOutcome.InsufficientStock) result;
                TryOutcome answer = allotments.mayHave(request.lines()) ? soldOutInRedis(request, redisShort)
                        : result;
                if (answer instanceof TryOutcome.InsufficientStock && redisShort.coveredByUnitsMovingIn()) {
                    // the units are between the stores (a handover to Redis under way): not gone, not sellable yet
                    meters.counter("inventory.tries.units-moving-in").increment();
                    return new TryOutcome.MysqlStoreBusy(redisShort.skuId(), "SKU " + redisShort.skuId() + ": "
                            + redisShort.movingIn() + " unit(s) are on their way from the MySQL store's allotment into"
                            + " Redis, which has " + redisShort.available() + " of the " + redisShort.requested()
                            + " requested; nothing was reserved, try again in a moment");
                }
                return answer;
            default:
                return result;
        }
    }

    private TryOutcome stale(TryRequest request, TryOutcome.StaleSku stale) {
        StockCatalog.SaleState sale = catalog.saleState(stale.skuId());
        if (sale == StockCatalog.SaleState.SWEPT) {
            // closed, and Redis let go of it for good: nothing to rebuild
            return new TryOutcome.SaleClosed(stale.skuId());
        }
        events.publishEvent(new RebuildNeeded(stale.skuId()));
        if (sale == StockCatalog.SaleState.CLOSED) {
            // rebuilt all the same, for the reservations still open on it; it sells nothing more
            return new TryOutcome.SaleClosed(stale.skuId());
        }
        if (allotments.mayHave(request.lines())) {
            TryOutcome fromAllotment = mysql.reserve(request, TryRoute.STALE_SKU);
            if (fromAllotment.code() != TryOutcome.Code.INSUFFICIENT_STOCK
                    && fromAllotment.code() != TryOutcome.Code.MYSQL_STORE_BUSY) {
                return fromAllotment;
            }
        }
        // the allotment cannot take it either: the SKU being rebuilt is the answer
        return stale;
    }

    /**
     * Redis refused for want of stock and the allotment may have the units. One count decides the buyer's limit
     * whichever store sells: first Redis counts the buyer's units ({@code lua/book.lua}: refused there if the buyer
     * would hold too many, in either store), then the MySQL store takes the stock only; if it takes nothing, the count
     * is given back. A Try whose count cannot be taken in Redis now gets the MySQL store as when Redis is out of reach
     * (Redis went away just now) or "not now" (a retry of the same reservation landed in Redis meanwhile).
     */
    private TryOutcome soldOutInRedis(TryRequest request, TryOutcome.InsufficientStock redisShort) {
        BookScript.Booking booking;
        try {
            booking = redis.book(request);
        } catch (RedisUnreachable e) {
            if (!e.notSent()) {
                throw e;
            }
            return mysql.reserve(request, TryRoute.REDIS_UNREACHABLE);
        }
        if (booking instanceof BookScript.Booking.LimitExceeded exceeded) {
            int requested = request.lines().stream().filter(l -> l.skuId().equals(exceeded.skuId()))
                    .mapToInt(StockLine::quantity).findFirst().orElse(0);
            return new TryOutcome.PurchaseLimitExceeded(exceeded.skuId(), requested, exceeded.limit(),
                    exceeded.held());
        }
        if (booking instanceof BookScript.Booking.NotBooked notBooked) {
            return new TryOutcome.MysqlStoreBusy(notBooked.skuId(), "SKU " + notBooked.skuId() + ": "
                    + notBooked.why() + " since it refused for want of stock; nothing was reserved, try again");
        }
        TryOutcome fromAllotment;
        try {
            fromAllotment = mysql.reserve(request, TryRoute.REDIS_SOLD_OUT);
        } catch (RuntimeException e) {
            releaseBooking(request.xid(), request.reservationId(), request.userId(), request.lines());
            throw e;
        }
        if (fromAllotment.code() != TryOutcome.Code.RESERVED
                && fromAllotment.code() != TryOutcome.Code.ALREADY_RESERVED) {
            releaseBooking(request.xid(), request.reservationId(), request.userId(), request.lines());
        }
        if (fromAllotment instanceof TryOutcome.InsufficientStock allotmentShort) {
            // neither store alone has enough: the answer names what both have of the SKU Redis was short of
            long more = allotmentShort.skuId().equals(redisShort.skuId()) ? allotmentShort.available() : 0;
            return new TryOutcome.InsufficientStock(redisShort.skuId(), redisShort.requested(),
                    redisShort.available() + more);
        }
        return fromAllotment;
    }

    /**
     * Redis holds a booking of this reservation ({@code lua/book.lua}) for a Try of the MySQL store whose outcome it
     * does not know: an earlier attempt, under way or cut short (a caller that retried after a timeout). The MySQL
     * store answers, its ledger rows deciding: an attempt that committed is a replay (already reserved), one still
     * under way is "not now", and where none took the stock this one takes it, the buyer counted by the booking
     * already. A booking the MySQL store refused is given back.
     */
    private TryOutcome bookedEarlier(TryRequest request) {
        meters.counter("inventory.tries.booked-earlier").increment();
        TryOutcome fromAllotment = mysql.reserve(request, TryRoute.REDIS_SOLD_OUT);
        if (fromAllotment instanceof TryOutcome.Refusal && fromAllotment.code() != TryOutcome.Code.MYSQL_STORE_BUSY) {
            releaseBooking(request.xid(), request.reservationId(), request.userId(), request.lines());
        }
        return fromAllotment;
    }

    /**
     * Gives back a count {@code lua/book.lua} took, where the MySQL store holds nothing of the reservation. Left to the
     * reservation's Cancel when Redis cannot be asked now (it finds the count orphaned and gives it back then).
     */
    private long releaseBooking(String xid, String reservationId, String userId, List<StockLine> lines) {
        try {
            return redis.releaseBooking(xid, reservationId, userId, lines);
        } catch (RuntimeException e) {
            log.warn("reservation {}: the buyer's count taken in Redis for the MySQL store could not be given back"
                    + " now ({}); the reservation's Cancel gives it back", reservationId, e.toString());
            return 0;
        }
    }

    /**
     * Records a refusal on every line of the reservation, so that a Confirm of it takes nothing whoever commits the
     * transaction afterwards (a caller that ignores the refusal, or one that attached this line to someone else's
     * transaction): a REFUSED record in Redis, where lines of an earlier slot group that reserved give their units
     * back at once; or a REFUSED ledger row in the MySQL store for lines it holds, while Redis cannot be asked, and
     * for a stale SKU (its Redis stock is about to be rebuilt from MySQL). Refusals that reserve nothing anywhere need
     * no record: a reservation cancelled first (its CANCELLED record says so), an unknown SKU (no Confirm can take
     * units of it) and a busy MySQL store (the Try went nowhere). A record that cannot be written is counted
     * ({@code inventory.refusals.unrecorded}) and logged; the refusal is answered all the same, and the usual
     * rollback of the transaction gives back whatever an earlier group holds.
     */
    private void recordRefusal(String xid, long branchId, String reservationId, String userId, ReservationLines lines,
                               TryOutcome.Refusal refusal) {
        boolean inRedis = CancelScript.RecordedRefusal.of(refusal).isPresent();
        // a stale SKU is about to be rebuilt from MySQL, and Redis holds nothing of a swept one (nor should it again):
        // their refusals are MySQL's to record
        boolean stale = refusal.code() == TryOutcome.Code.STALE_SKU || refusal.code() == TryOutcome.Code.SALE_CLOSED
                && catalog.saleState(refusal.skuId()) == StockCatalog.SaleState.SWEPT;
        if (!inRedis && !stale) {
            return;
        }
        for (StockLine line : lines.lines()) {
            PhaseLine l = new PhaseLine(xid, reservationId, branchId, userId, line);
            try {
                boolean inMysql = stale || !recordedInRedis(l, refusal);
                if (inMysql) {
                    mysql.refuse(l, refusal);
                }
            } catch (RuntimeException e) {
                meters.counter("inventory.refusals.unrecorded").increment();
                log.error("the refusal of reservation {} could not be recorded for SKU {}: a commit of its"
                        + " transaction would find no record there: {}", reservationId, line.skuId(), e.toString());
            }
        }
    }

    /** The refusal's record in Redis; false when the MySQL store must write it (it holds the line, or Redis is out). */
    private boolean recordedInRedis(PhaseLine l, TryOutcome.Refusal refusal) {
        PhaseOutcome outcome;
        try {
            outcome = redis.refuse(l, refusal);
        } catch (RedisUnreachable e) {
            return false;
        }
        if (outcome.code() == PhaseOutcome.Code.APPLIED) {
            // an earlier group's units, back in stock: the ledger row the TRIED event made ends too
            sales.cancelled(l.xid(), l.reservationId(), l.branchId(), l.skuId(), outcome.quantity(), l.userId());
            events.publishEvent(new StockEventsWritten(List.of(l.skuId())));
        }
        return outcome.code() != PhaseOutcome.Code.HELD_IN_MYSQL;
    }

    /**
     * Every line of a second phase, each in the store that holds it.
     *
     * @throws RuntimeException on any failure, or a line that must wait for Redis: Seata retries the whole phase
     */
    void end(Phase phase, String xid, long branchId, String reservationId, String userId, ReservationLines lines) {
        for (StockLine line : lines.lines()) {
            PhaseLine l = new PhaseLine(xid, reservationId, branchId, userId, line);
            Ended ended = endLine(phase, l);
            PhaseOutcome outcome = ended.outcome();
            meters.counter("inventory.phase.outcomes", "phase", phase.tag(), "outcome", outcome.tag(),
                    "store", ended.store().name()).increment();
            switch (outcome.code()) {
                case REFUSED:
                    confirmOfRefused(l, ended.store());
                    break;
                case TAKEN_UNRECORDED:
                    log.warn("confirm found no reservation record for SKU {} (the Try never reached Redis, or Redis"
                            + " lost it): the committed {} unit(s) were sold (taken from available stock; on a SKU Redis"
                            + " lost or must rebuild, counted in MySQL, from which it is rebuilt)", line.skuId(),
                            outcome.quantity());
                    record(phase, l, outcome.quantity(), ended.store(), true);
                    break;
                case APPLIED:
                    record(phase, l, outcome.quantity(), ended.store(), true);
                    break;
                case ALREADY_APPLIED:
                    if (outcome.quantity() > 0) {
                        // a replay: the MySQL step of an earlier attempt may have failed after the script ran
                        record(phase, l, outcome.quantity(), ended.store(), false);
                    }
                    break;
                case OVERSOLD:
                    log.error("confirm found no reservation record for SKU {} and fewer than {} unit(s) available:"
                            + " they were sold again; recorded for reconciliation (OVERSOLD_CONFIRM)", line.skuId(),
                            outcome.quantity());
                    break;
                case NO_RECORD:
                    if (phase == Phase.CONFIRM && ended.store() == redis) {
                        log.error("confirm found neither a reservation record nor stock for SKU {} in Redis;"
                                + " left for reconciliation (REDIS_MISSING)", line.skuId());
                    } else {
                        log.info("empty rollback for SKU {}: tombstone written in {}", line.skuId(),
                                ended.store() == redis ? "Redis" : "Redis and MySQL");
                    }
                    break;
                case ENDED_OTHERWISE:
                    log.error("{} refused for SKU {} by the {} store: the reservation already ended the other way",
                            phase.tag(), line.skuId(), ended.store().name());
                    break;
                default:
                    break;
            }
        }
    }

    /** What a second phase did to one line, and the store that did it. */
    private record Ended(PhaseOutcome outcome, ReservationStore store) {
    }

    /**
     * One line of a second phase, in the store that holds it.
     *
     * @throws RedisUnreachable Redis cannot be asked and the MySQL store does not hold the line: it waits for Redis
     */
    private Ended endLine(Phase phase, PhaseLine l) {
        PhaseOutcome outcome;
        try {
            outcome = redis.end(phase, l, false).orElseThrow();
        } catch (RedisUnreachable e) {
            return inMysql(phase, l, false).orElseThrow(() -> e);
        }
        switch (outcome.code()) {
            case HELD_IN_MYSQL:
                return inMysql(phase, l, false).or(() -> orphanedBooking(phase, l))
                        .orElseThrow(() -> new IllegalStateException("Redis says the MySQL store holds reservation "
                                + l.reservationId() + " of SKU " + l.skuId() + ", and the ledger has no row of it"));
            case UNRECORDED:
                // no record in Redis: the Try ran in the MySQL store, or Redis never had it or lost it; a record Redis
                // dropped after its phase is in the ledger, and a replay takes nothing again
                return inMysql(phase, l, false).or(() -> endedInTheLedger(phase, l)).orElseGet(() ->
                        new Ended(redis.end(phase, l, true).orElseThrow(), redis));
            case NO_RECORD:
                if (phase == Phase.CANCEL) {
                    // Redis's tombstone is written; the MySQL store cancels what it holds, or writes its own tombstone;
                    // it holds nothing and writes none when the ledger has the row of a Redis reservation, which Redis
                    // no longer has (it lost the record, or the SKU altogether): that row ends CANCELLED
                    return inMysql(phase, l, true).orElseGet(() -> {
                        sales.cancelled(l.xid(), l.reservationId(), l.branchId(), l.skuId(), l.line().quantity(),
                                l.userId());
                        return new Ended(outcome, redis);
                    });
                }
                // Redis lost the SKU altogether: the MySQL store confirms the line if it holds it; else the committed
                // sale is Redis's, recorded in MySQL (the script writes the CONFIRMED record, moving no counters), and
                // Redis gets the SKU back from MySQL, which then counts it
                events.publishEvent(new RebuildNeeded(l.skuId()));
                return inMysql(phase, l, false).or(() -> endedInTheLedger(phase, l)).orElseGet(() ->
                        new Ended(redis.end(phase, l, true).orElseThrow(), redis));
            default:
                return new Ended(outcome, redis);
        }
    }

    /**
     * A Confirm that finds no record in Redis of a reservation whose Confirm or Cancel the ledger has already: Redis
     * dropped the record (an evicting Redis, a record that outlived its retention, writes lost), and this is a replay.
     * It is answered as the record would have answered it, and nothing is taken again.
     */
    private Optional<Ended> endedInTheLedger(Phase phase, PhaseLine l) {
        return sales.endedInRedisStore(l.xid(), l.reservationId(), l.skuId()).map(row -> {
            meters.counter("inventory.phases.decided-in-ledger", "phase", phase.tag()).increment();
            log.warn("{} of reservation {} on SKU {}: Redis has no record of it, and the ledger has it {}: a replay,"
                    + " answered from the ledger, nothing taken", phase.tag(), l.reservationId(), l.skuId(),
                    row.state());
            PhaseOutcome outcome = (phase == Phase.CONFIRM) == "CONFIRMED".equals(row.state())
                    ? new PhaseOutcome.AlreadyApplied(row.quantity()) : new PhaseOutcome.EndedOtherwise(row.quantity());
            return new Ended(outcome, redis);
        });
    }

    /**
     * Redis counted the buyer's units for a Try of the MySQL store that never took the stock (the process ended
     * between the two, or the MySQL store's answer was lost): the count is given back, and the line is ended as one
     * Redis has no record of.
     */
    private Optional<Ended> orphanedBooking(Phase phase, PhaseLine l) {
        if (redis.releaseBooking(l.xid(), l.reservationId(), l.userId(), List.of(l.line())) == 0) {
            return Optional.empty();
        }
        log.info("reservation {}: the buyer's count taken in Redis for a Try the MySQL store never took is given"
                + " back ({} of SKU {})", l.reservationId(), phase.tag(), l.skuId());
        // as for a line Redis has no record of: a Cancel leaves tombstones in both stores, a Confirm sells what the
        // coordinator committed
        Ended ended = new Ended(redis.end(phase, l, true).orElseThrow(), redis);
        if (phase == Phase.CANCEL) {
            inMysql(phase, l, true);
        }
        return Optional.of(ended);
    }

    private Optional<Ended> inMysql(Phase phase, PhaseLine l, boolean lastWord) {
        return mysql.end(phase, l, lastWord).map(o -> new Ended(o, mysql));
    }

    /**
     * The phase moved units of a line Redis holds: MySQL's sales record follows, and (unless this is a replay) the
     * SKU's stock events are forwarded. The MySQL store's own phase has written its record already.
     */
    private void record(Phase phase, PhaseLine l, long units, ReservationStore store, boolean moved) {
        if (store != redis) {
            return;
        }
        switch (phase) {
            case CONFIRM -> sales.confirmed(l.xid(), l.reservationId(), l.branchId(), l.skuId(), units, l.userId());
            case CANCEL -> sales.cancelled(l.xid(), l.reservationId(), l.branchId(), l.skuId(), units, l.userId());
        }
        if (moved) {
            events.publishEvent(new StockEventsWritten(List.of(l.skuId())));
        }
    }

    /**
     * The coordinator committed a transaction whose Try of this reservation this service refused: nothing was taken
     * (the refusal's record says so), and the coordinator is answered with success, since no retry could change that.
     * Counted ({@code inventory.confirm-of-refused-try}), logged, and kept in the ledger (the REFUSED row's
     * {@code refused_confirm_at}), which the reconciler reports as {@code CONFIRM_OF_REFUSED_TRY}.
     */
    private void confirmOfRefused(PhaseLine l, ReservationStore store) {
        meters.counter("inventory.confirm-of-refused-try", "store", store.name()).increment();
        log.error("confirm of a Try this service refused, SKU {} ({} unit(s) asked): the transaction was committed"
                + " after a refusal; nothing taken; recorded for reconciliation (CONFIRM_OF_REFUSED_TRY)",
                l.skuId(), l.line().quantity());
        sales.confirmOfRefused(l.xid(), l.reservationId(), l.branchId(), l.skuId(), l.line().quantity(),
                store.name().toUpperCase(Locale.ROOT), l.userId());
    }
}
