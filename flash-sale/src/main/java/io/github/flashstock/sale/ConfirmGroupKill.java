package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalDouble;

/**
 * The only inventory-service instance kill -9 while Confirms are being coalesced: the victim is asked every few
 * milliseconds how many Confirms wait for a shared call of {@code confirm.lua} ({@code inventory.phase.waiting},
 * phase confirm), and dies as soon as some do, so its calls and group commits under way die with it: Confirms
 * that ran in Redis but whose MySQL group had not committed, groups half sent. Started again after the outage; the
 * coordinator retries every Confirm that did not answer.
 */
final class ConfirmGroupKill implements Fault {

    /** Longest the fault watches for coalesced Confirms before it kills anyway (and says so). */
    private static final Duration WATCH = Duration.ofSeconds(15);

    private ServiceProcess victim;

    @Override
    public Hit inject(Scene scene) {
        victim = scene.services().inventories().get(0);
        InventoryApi api = new InventoryApi(victim.url(), scene.services().adminToken())
                .withReadTimeout(Duration.ofSeconds(2));
        Instant until = Instant.now().plus(WATCH);
        double waiting = 0;
        while (Instant.now().isBefore(until)) {
            OptionalDouble now = api.metric("inventory.phase.waiting", "phase:confirm");
            waiting = now.orElse(0);
            if (waiting > 0) {
                break;
            }
            ServiceProcess.sleep(Duration.ofMillis(5));
        }
        double calls = api.metricStatistic("inventory.phase.batch.size", "phase:confirm", "COUNT").orElse(0);
        double confirms = api.metricStatistic("inventory.phase.batch.size", "phase:confirm", "TOTAL").orElse(0);
        long pid = victim.pid();
        Instant at = Instant.now();
        victim.kill();
        return new Hit(at, victim.name() + " (PID " + pid + ") killed " + (waiting > 0
                ? "with " + (long) waiting + " Confirm(s) waiting for a coalesced call (so far "
                        + String.format("%.1f", confirms / Math.max(1, calls)) + " Confirms per call)"
                : "after " + WATCH.toSeconds() + " s without a Confirm waiting for a coalesced call"));
    }

    @Override
    public String heal(Scene scene) {
        victim.start(Duration.ofMinutes(3));
        return "";
    }
}
