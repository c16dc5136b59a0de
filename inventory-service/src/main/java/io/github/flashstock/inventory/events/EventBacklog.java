package io.github.flashstock.inventory.events;

/**
 * Stock events written to the SKUs' Redis streams and not yet handed to RocketMQ (or handed and not yet deleted).
 *
 * @param entries      stream entries waiting (an entry holds the events of one script call on one SKU)
 * @param oldestMillis when the oldest of them was written (epoch milliseconds, from its stream id); 0 when none wait
 */
public record EventBacklog(long entries, long oldestMillis) {

    public static final EventBacklog NONE = new EventBacklog(0, 0);

    /** Both backlogs as one: the entries summed, the older of the two oldest. */
    EventBacklog plus(EventBacklog other) {
        if (entries == 0) {
            return other;
        }
        if (other.entries == 0) {
            return this;
        }
        return new EventBacklog(entries + other.entries, Math.min(oldestMillis, other.oldestMillis));
    }

    /** How long the oldest entry has waited at {@code nowMillis}; 0 when none wait. */
    public long lagMillis(long nowMillis) {
        return entries == 0 ? 0 : Math.max(0, nowMillis - oldestMillis);
    }
}
