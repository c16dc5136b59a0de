package io.github.flashstock.inventory.stock;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.group-commit}: how {@link SalesGroups} gathers the MySQL steps of concurrent
 * second phases (Confirms apart from Cancels) into one transaction. Read at start.
 *
 * @param maxBatch most reservations in one transaction; 1 turns group commit off (every phase commits its own)
 * @param inFlight most group transactions under way at once, per phase
 * @param maxWait  longest a phase waits for its transaction, queueing included; then it fails as a timeout (and
 *                 the coordinator retries it; the step is idempotent)
 */
@ConfigurationProperties("inventory.group-commit")
public record GroupCommit(@DefaultValue("64") int maxBatch, @DefaultValue("2") int inFlight,
                          @DefaultValue("5s") Duration maxWait) {

    public GroupCommit {
        Coalescer.Settings.check("inventory.group-commit", maxBatch, inFlight, maxWait);
    }

    /** The settings as the coalescer takes them. */
    public Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait);
    }
}
