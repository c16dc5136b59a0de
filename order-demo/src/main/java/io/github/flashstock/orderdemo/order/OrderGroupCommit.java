package io.github.flashstock.orderdemo.order;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code orders.group-commit}: how {@link OrderGroups} gathers the order branch's concurrent Tries
 * (apart from its Confirms) into one transaction. Read at start.
 *
 * @param maxBatch most orders in one transaction; 1 turns group commit off (every phase commits its own)
 * @param inFlight most group transactions under way at once, per phase
 * @param maxWait  longest a phase waits for its transaction, queueing included; then it fails as a timeout (a Try's
 *                 failure rolls the order back; a Confirm is retried by the coordinator)
 */
@ConfigurationProperties("orders.group-commit")
public record OrderGroupCommit(@DefaultValue("64") int maxBatch, @DefaultValue("2") int inFlight,
                               @DefaultValue("5s") Duration maxWait) {

    public OrderGroupCommit {
        Coalescer.Settings.check("orders.group-commit", maxBatch, inFlight, maxWait);
    }

    /** The settings as the coalescer takes them. */
    Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait);
    }
}
