package io.github.flashstock.inventory.reconciliation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code inventory.reconciliation}.
 *
 * @param interval     pause between scheduled runs
 * @param overdueAfter   a reservation still TRIED after this long is reported
 * @param ledgerGrace  a TRIED reservation without a ledger row after this long is reported (events are async)
 * @param driftRecheck drift must still be there this long after it was first seen (a Confirm between its Redis
 *                     script and its MySQL transaction is not drift)
 * @param reportTopic  RocketMQ topic each run's report is published to
 * @param seataConsole where to ask the TC about an overdue reservation's global transaction (blank: not asked)
 * @param sessionOverdueAfter a global session the TC still holds after this long is reported, with the state of its
 *                     reservations in the ledger (needs {@code seataConsole})
 */
@ConfigurationProperties("inventory.reconciliation")
public record ReconciliationSettings(Duration interval, Duration overdueAfter, Duration ledgerGrace,
                                     Duration driftRecheck, String reportTopic, SeataConsole seataConsole,
                                     Duration sessionOverdueAfter) {

    public record SeataConsole(String url, String username, String password) {
    }
}
