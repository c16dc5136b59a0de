package io.github.flashstock.inventory.stock.redis;

import java.util.List;

/** What {@code lua/reload.lua} did. */
public sealed interface ReloadOutcome {

    record Reloaded(long total, long locked, long sold, long openReservations) implements ReloadOutcome {
    }

    /** The open reservations hold more than MySQL says is on hand; nothing changed (drift to look at). */
    record OpenExceedsStock(long onHand, long locked, long openReservations) implements ReloadOutcome {
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
