package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.reservation.Phase;
import io.github.flashstock.inventory.reservation.PhaseLine;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.ReservationStore;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.reservation.TryRoute;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The MySQL store as the router sees it: Tries within its rate limit ({@link MysqlStoreLimit}), the phases of the
 * lines it holds, the records of refusals, and after each change a nudge to the mirror, which tells Redis what this
 * store did. Tries are counted in {@code inventory.mysql-store.tries} by outcome and cause ({@link TryRoute#tag()}).
 */
@Component(ReservationStore.MYSQL)
class MysqlStore implements ReservationStore {

    private final MysqlReservations reservations;
    private final MysqlStoreLimit limit;
    private final MysqlStoreMirror mirror;
    private final MeterRegistry meters;

    MysqlStore(MysqlReservations reservations, MysqlStoreLimit limit, MysqlStoreMirror mirror, MeterRegistry meters) {
        this.reservations = reservations;
        this.limit = limit;
        this.mirror = mirror;
        this.meters = meters;
    }

    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public TryOutcome reserve(TryRequest request, TryRoute route) {
        String outcome = "error";
        try {
            TryOutcome result = limit.tryAcquire() ? reservations.reserve(request, route.redisAnswered(),
                    route.limitCountedInRedis())
                    : new TryOutcome.MysqlStoreBusy(null, "the MySQL store takes at most " + limit.perSecond()
                            + " Tries per second while Redis cannot take them, and that many came this second;"
                            + " nothing was reserved, try again in a moment");
            outcome = result.tag();
            if (result.code() == TryOutcome.Code.RESERVED) {
                mirror.soon();
            }
            return result;
        } finally {
            meters.counter("inventory.mysql-store.tries", "outcome", outcome, "cause", route.tag()).increment();
        }
    }

    @Override
    public Optional<PhaseOutcome> end(Phase phase, PhaseLine l, boolean lastWord) {
        Optional<PhaseOutcome> outcome = switch (phase) {
            case CONFIRM -> reservations.confirm(l.xid(), l.reservationId(), l.line());
            case CANCEL -> reservations.cancel(l.xid(), l.reservationId(), l.branchId(), l.userId(), l.line(),
                    lastWord);
        };
        if (outcome.isPresent()) {
            mirror.soon();
        }
        return outcome;
    }

    @Override
    public PhaseOutcome refuse(PhaseLine l, TryOutcome.Refusal refusal) {
        reservations.refuse(l.xid(), l.reservationId(), l.branchId(), l.userId(), l.line(),
                MysqlReservations.refusalName(refusal));
        mirror.soon();
        return new PhaseOutcome.NoRecord();
    }
}
