package io.github.flashstock.inventory.reservation;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.try-coalescing}: how {@link TryCoalescer} gathers concurrent Tries into one
 * script call. Read at start.
 *
 * @param maxBatch most reservations in one call of {@code try.lua}; 1 turns coalescing off (every Try runs its own
 *                 script on the caller's thread)
 * @param inFlight most calls of {@code try.lua} under way at once for one cluster slot (so for one hot SKU)
 * @param maxWait  longest a Try waits for its call, queueing included; then it fails as a timeout
 */
@ConfigurationProperties("inventory.try-coalescing")
public record TryCoalescing(@DefaultValue("32") int maxBatch, @DefaultValue("4") int inFlight,
                            @DefaultValue("3s") Duration maxWait) {

    public TryCoalescing {
        Coalescer.Settings.check("inventory.try-coalescing", maxBatch, inFlight, maxWait);
    }

    /** The settings as the coalescer takes them. */
    public Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait);
    }
}
