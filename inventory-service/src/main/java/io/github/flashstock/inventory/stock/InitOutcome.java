package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/** What {@code lua/init.lua} found or did; both cases carry the SKU's stock as it now is in Redis. */
public sealed interface InitOutcome {

    long available();

    long reserved();

    long sold();

    int segments();

    record Created(long available, long reserved, long sold, int segments) implements InitOutcome {
    }

    /** The SKU already had stock in Redis; nothing was overwritten. */
    record AlreadyExists(long available, long reserved, long sold, int segments) implements InitOutcome {
    }

    enum Code {
        CREATED, EXISTS
    }

    static InitOutcome decode(List<Long> reply) {
        int code = (int) Scripts.at(reply, 0);
        long available = Scripts.at(reply, 1);
        long reserved = Scripts.at(reply, 2);
        long sold = Scripts.at(reply, 3);
        int segments = (int) Scripts.at(reply, 4);
        return switch (code) {
            case 0 -> new Created(available, reserved, sold, segments);
            case 1 -> new AlreadyExists(available, reserved, sold, segments);
            default -> throw Scripts.unknownCode("init.lua", reply);
        };
    }
}
