package io.github.flashstock.inventory.reservation;

import java.util.Locale;

/**
 * Why a Try goes to the store it goes to: Redis first, and the MySQL store when Redis could not be asked, when the
 * SKU is stale in Redis (its allotment sells while Redis is rebuilt), or when Redis is sold out and the allotment
 * has units (the buyer's units counted in Redis first). {@link #tag()} is the {@code cause} in {@code inventory.mysql-store.tries}.
 */
public enum TryRoute {
    REDIS, REDIS_UNREACHABLE, STALE_SKU, REDIS_SOLD_OUT;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether Redis answered for this Try: it refused or is being rebuilt, rather than out of reach. */
    public boolean redisAnswered() {
        return this != REDIS_UNREACHABLE;
    }

    /**
     * Whether the buyer's units were counted towards the limit in Redis before this Try reached the MySQL store
     * ({@code lua/book.lua}): the MySQL store then takes the stock only, and does not count the buyer again from its
     * ledger, which learns of Redis's units late.
     */
    public boolean limitCountedInRedis() {
        return this == REDIS_SOLD_OUT;
    }
}
