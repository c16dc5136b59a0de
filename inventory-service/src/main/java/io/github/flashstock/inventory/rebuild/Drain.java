package io.github.flashstock.inventory.rebuild;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waiting until every global transaction the coordinator holds open now has ended (see {@link SkuRebuilds}). */
final class Drain {

    private static final Logger log = LoggerFactory.getLogger(Drain.class);

    private Drain() {
    }

    /**
     * @param waitingSkus named in the log when the wait gives up
     * @param pause       sleeps for the given time; false when interrupted
     * @return true once every transaction open at the call has ended (or, with no coordinator to ask, once the
     *         fixed wait is over); false when the coordinator could not be asked, or a transaction did not end,
     *         within {@link RebuildSettings#drainTimeout()}
     */
    static boolean await(OpenTransactions coordinator, RebuildSettings settings, Set<String> waitingSkus,
                         Predicate<Duration> pause) {
        if (!coordinator.configured()) {
            log.warn("no coordinator console configured: waiting {} before rebuilding, instead of watching the"
                    + " transactions end", settings.withoutCoordinator());
            return pause.test(settings.withoutCoordinator());
        }
        Instant deadline = Instant.now().plus(settings.drainTimeout());
        Optional<Set<String>> before = coordinator.openXids();
        while (before.isEmpty()) {
            if (!Instant.now().isBefore(deadline)) {
                log.error("rebuild: the coordinator could not be asked for {}; SKUs {} stay refused",
                        settings.drainTimeout(), waitingSkus);
                return false;
            }
            if (!pause.test(settings.poll())) {
                return false;
            }
            before = coordinator.openXids();
        }
        Set<String> waitingFor = new LinkedHashSet<>(before.get());
        while (!waitingFor.isEmpty()) {
            if (!Instant.now().isBefore(deadline)) {
                log.error("rebuild: {} global transaction(s) open at the loss still not ended after {} (e.g."
                        + " {}); SKUs {} stay refused", waitingFor.size(), settings.drainTimeout(),
                        waitingFor.iterator().next(), waitingSkus);
                return false;
            }
            if (!pause.test(settings.poll())) {
                return false;
            }
            // a transaction is over once the coordinator no longer lists it; while it cannot be asked, nothing is
            // known to be over
            coordinator.openXids().ifPresent(waitingFor::retainAll);
        }
        return true;
    }
}
