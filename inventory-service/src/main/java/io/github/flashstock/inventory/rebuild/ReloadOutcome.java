package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/** What {@code lua/reload.lua} did. */
public sealed interface ReloadOutcome {

    /** The SKU's stock as it now is in Redis. */
    record Reloaded(long available, long reserved, long sold, long openReservations) implements ReloadOutcome {
    }

    /**
     * The open reservations hold more units ({@code reserved}) than MySQL has available ({@code available}); nothing
     * changed (drift to look at).
     */
    record OpenExceedsStock(long available, long reserved, long openReservations) implements ReloadOutcome {
    }

    enum Code {
        RELOADED, OPEN_EXCEEDS
    }

    static ReloadOutcome decode(List<Long> reply) {
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Reloaded(Scripts.at(reply, 1), Scripts.at(reply, 2), Scripts.at(reply, 3), Scripts.at(reply, 4));
            case 1 -> new OpenExceedsStock(Scripts.at(reply, 1), Scripts.at(reply, 2), Scripts.at(reply, 4));
            default -> throw Scripts.unknownCode("reload.lua", reply);
        };
    }
}
