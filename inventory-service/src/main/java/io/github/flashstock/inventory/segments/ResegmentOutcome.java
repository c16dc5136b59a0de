package io.github.flashstock.inventory.segments;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/** What {@code lua/resegment.lua} did. */
public sealed interface ResegmentOutcome {

    /** Available units ({@code moved}) were gathered and spread over the new segments. */
    record Resegmented(int from, int to, long moved) implements ResegmentOutcome {
    }

    record Unchanged(int segments) implements ResegmentOutcome {
    }

    record UnknownSku() implements ResegmentOutcome {
    }

    enum Code {
        RESEGMENTED, UNCHANGED, UNKNOWN_SKU
    }

    static ResegmentOutcome decode(List<Long> reply) {
        return switch ((int) Scripts.at(reply, 0)) {
            case 0 -> new Resegmented((int) Scripts.at(reply, 1), (int) Scripts.at(reply, 2), Scripts.at(reply, 3));
            case 1 -> new Unchanged((int) Scripts.at(reply, 1));
            case 2 -> new UnknownSku();
            default -> throw Scripts.unknownCode("resegment.lua", reply);
        };
    }
}
