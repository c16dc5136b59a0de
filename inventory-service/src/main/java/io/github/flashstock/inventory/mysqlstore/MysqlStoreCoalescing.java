package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.support.Coalescer;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.mysql-store.coalescing}: how {@link MysqlReservations} gathers the one-line Tries
 * of one SKU that arrive together into one transaction ({@link TryGroup}). Read at start.
 *
 * @param maxBatch most Tries in one transaction; 1 turns coalescing off (every Try runs alone on its caller's thread)
 * @param inFlight most group transactions under way at once for one SKU
 * @param maxWait  longest a Try waits for its transaction, queueing included; then it fails as a timeout
 */
@ConfigurationProperties("inventory.mysql-store.coalescing")
public record MysqlStoreCoalescing(@DefaultValue("32") int maxBatch, @DefaultValue("2") int inFlight,
                                   @DefaultValue("3s") Duration maxWait) {

    public MysqlStoreCoalescing {
        Coalescer.Settings.check("inventory.mysql-store.coalescing", maxBatch, inFlight, maxWait);
    }

    /** The settings as the coalescer takes them. */
    public Coalescer.Settings gathering() {
        return new Coalescer.Settings(maxBatch, inFlight, maxWait);
    }
}
