package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/** What {@code lua/migrate.lua} found or did. */
sealed interface MigrateOutcome {

    /** The old fields were replaced; the SKU's stock as it now is in Redis. */
    record Migrated(long available, long reserved, long sold) implements MigrateOutcome {
    }

    record AlreadyCurrent() implements MigrateOutcome {
    }

    record UnknownSku() implements MigrateOutcome {
    }

    enum Code {
        MIGRATED, ALREADY_CURRENT, UNKNOWN_SKU
    }

    static MigrateOutcome decode(List<Long> reply) {
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Migrated(Scripts.at(reply, 1), Scripts.at(reply, 2), Scripts.at(reply, 3));
            case 1 -> new AlreadyCurrent();
            case 2 -> new UnknownSku();
            default -> throw Scripts.unknownCode("migrate.lua", reply);
        };
    }
}
