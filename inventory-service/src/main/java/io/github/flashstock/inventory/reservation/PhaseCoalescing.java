package io.github.flashstock.inventory.reservation;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.phase-coalescing}: how {@link PhaseCoalescer} gathers concurrent Confirms (and,
 * apart from them, concurrent Cancels) into one call of {@code confirm.lua} ({@code cancel.lua}). Read at start.
 *
 * @param maxBatch most reservations in one call; 1 turns coalescing off (every phase runs its own script on the
 *                 caller's thread)
 * @param inFlight most calls under way at once for one cluster slot (so for one hot SKU), per phase
 * @param maxWait  longest a phase waits for its call, queueing included; then it fails as a timeout (and the
 *                 coordinator retries it)
 */
@ConfigurationProperties("inventory.phase-coalescing")
public record PhaseCoalescing(@DefaultValue("32") int maxBatch, @DefaultValue("2") int inFlight,
                              @DefaultValue("3s") Duration maxWait) {

    public PhaseCoalescing {
        Coalescer.Settings.check("inventory.phase-coalescing", maxBatch, inFlight, maxWait);
    }

    /** The settings as the coalescer takes them. */
    public Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait);
    }
}
