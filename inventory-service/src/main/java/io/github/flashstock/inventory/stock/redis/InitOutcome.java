package io.github.flashstock.inventory.stock.redis;

import java.util.List;

/** What {@code lua/init.lua} found or did; both cases carry the SKU's stock as it now is in Redis. */
public sealed interface InitOutcome {

    long total();

    long locked();

    long sold();

    int segments();

    record Created(long total, long locked, long sold, int segments) implements InitOutcome {
    }

    /** The SKU already had stock in Redis; nothing was overwritten. */
    record AlreadyExists(long total, long locked, long sold, int segments) implements InitOutcome {
    }

    enum Code {
        CREATED, EXISTS
    }

    static InitOutcome decode(List<Long> reply) {
        int code = (int) Scripts.at(reply, 0);
        long total = Scripts.at(reply, 1);
        long locked = Scripts.at(reply, 2);
        long sold = Scripts.at(reply, 3);
        int segments = (int) Scripts.at(reply, 4);
        return switch (code) {
            case 0 -> new Created(total, locked, sold, segments);
            case 1 -> new AlreadyExists(total, locked, sold, segments);
            default -> throw Scripts.unknownCode("init.lua", reply);
        };
    }
}
