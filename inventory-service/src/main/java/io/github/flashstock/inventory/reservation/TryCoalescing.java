package io.github.flashstock.inventory.reservation;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.try-coalescing}: how {@link TryCoalescer} gathers concurrent Tries into one
 * script call. Read at start.
 *
 * @param maxBatch most reservations in one call of {@code try.lua}; 1 turns coalescing off (every Try runs its own
 *                 script on the caller's thread)
 * @param inFlight most calls of {@code try.lua} under way at once for one cluster slot (so for one hot SKU)
 * @param maxWait  longest a Try waits for its call, queueing included; then it fails as a timeout
 * @param linger   longest a sender whose call was just answered waits for as many Tries before its next call
 *                 ({@link Coalescer}); zero sends at once
 */
@ConfigurationProperties("inventory.try-coalescing")
public record TryCoalescing(int maxBatch, int inFlight, Duration maxWait, Duration linger) {

    @ConstructorBinding
    public TryCoalescing(@DefaultValue("64") int maxBatch, @DefaultValue("4") int inFlight,
                         @DefaultValue("3s") Duration maxWait, @DefaultValue("0ms") Duration linger) {
        Coalescer.Settings.check("inventory.try-coalescing", maxBatch, inFlight, maxWait);
        Coalescer.Settings.checkLinger("inventory.try-coalescing", linger, maxWait);
        this.maxBatch = maxBatch;
        this.inFlight = inFlight;
        this.maxWait = maxWait;
        this.linger = linger;
    }

    /** Without a linger. */
    public TryCoalescing(int maxBatch, int inFlight, Duration maxWait) {
        this(maxBatch, inFlight, maxWait, Duration.ZERO);
    }

    /** The settings as the coalescer takes them. */
    public Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait, linger);
    }
}
