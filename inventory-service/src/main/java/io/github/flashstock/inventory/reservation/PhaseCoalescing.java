package io.github.flashstock.inventory.reservation;

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
        if (maxBatch < 1 || inFlight < 1) {
            throw new IllegalArgumentException("inventory.phase-coalescing: max-batch and in-flight must be at least 1,"
                    + " were " + maxBatch + " and " + inFlight);
        }
        if (maxWait == null || maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("inventory.phase-coalescing.max-wait must be positive, was " + maxWait);
        }
    }
}
