package io.github.flashstock.inventory.stock.redis;

import java.util.List;

/** What {@code lua/restock.lua} did. */
public sealed interface RestockOutcome {

    record Restocked(long total) implements RestockOutcome {
    }

    /** This operation id was applied before; nothing changed. */
    record AlreadyApplied(long total) implements RestockOutcome {
    }

    record UnknownSku() implements RestockOutcome {
    }

    enum Code {
        RESTOCKED, ALREADY_APPLIED, UNKNOWN_SKU
    }

    static RestockOutcome decode(List<Long> reply) {
        long total = Scripts.at(reply, 1);
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Restocked(total);
            case 1 -> new AlreadyApplied(total);
            case 2 -> new UnknownSku();
            default -> throw Scripts.unknownCode("restock.lua", reply);
        };
    }
}
