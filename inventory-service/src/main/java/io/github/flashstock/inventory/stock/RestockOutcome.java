package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/** What {@code lua/restock.lua} did; the first two cases carry the SKU's stock as it now is in Redis. */
public sealed interface RestockOutcome {

    record Restocked(long stocked, long available) implements RestockOutcome {
    }

    /** This operation id was applied before; nothing changed. */
    record AlreadyApplied(long stocked, long available) implements RestockOutcome {
    }

    record UnknownSku() implements RestockOutcome {
    }

    enum Code {
        RESTOCKED, ALREADY_APPLIED, UNKNOWN_SKU
    }

    static RestockOutcome decode(List<Long> reply) {
        long stocked = Scripts.at(reply, 1);
        long available = Scripts.at(reply, 2);
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Restocked(stocked, available);
            case 1 -> new AlreadyApplied(stocked, available);
            case 2 -> new UnknownSku();
            default -> throw Scripts.unknownCode("restock.lua", reply);
        };
    }
}
