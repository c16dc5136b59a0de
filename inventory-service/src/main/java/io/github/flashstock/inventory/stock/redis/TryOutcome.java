package io.github.flashstock.inventory.stock.redis;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;

/** What {@code lua/try.lua} decided for a reservation. */
public sealed interface TryOutcome {

    /** Every line without a record is now locked. */
    record Reserved() implements TryOutcome {
    }

    /** A replay of a Try that already reserved (same xid and reservation id): nothing more was deducted. */
    record AlreadyReserved() implements TryOutcome {
    }

    record InsufficientStock(String skuId, int requested, long available) implements TryOutcome {
    }

    record LimitExceeded(String skuId, int requested, long limit, long alreadyBought) implements TryOutcome {
    }

    /** The Cancel of this reservation arrived first; the Try must not lock anything (anti-suspension). */
    record CancelledFirst(String skuId) implements TryOutcome {
    }

    /** The SKU has no stock in Redis: not created, or not loaded yet. */
    record UnknownSku(String skuId) implements TryOutcome {
    }

    /** The reply codes, as the script's header lists them. */
    enum Code {
        RESERVED, ALREADY_RESERVED, INSUFFICIENT_STOCK, LIMIT_EXCEEDED, CANCELLED_FIRST, UNKNOWN_SKU
    }

    /** Decodes {@code {code, line, a, b}}; {@code lines} are the lines the script was given, in order. */
    static TryOutcome decode(List<Long> reply, List<StockLine> lines) {
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode("try.lua", reply);
        }
        int lineIndex = (int) Scripts.at(reply, 1);
        StockLine line = lineIndex >= 1 && lineIndex <= lines.size() ? lines.get(lineIndex - 1) : null;
        return switch (Code.values()[code]) {
            case RESERVED -> new Reserved();
            case ALREADY_RESERVED -> new AlreadyReserved();
            case INSUFFICIENT_STOCK -> new InsufficientStock(line(line, reply).skuId(), line.quantity(),
                    Scripts.at(reply, 2));
            case LIMIT_EXCEEDED -> new LimitExceeded(line(line, reply).skuId(), line.quantity(), Scripts.at(reply, 2),
                    Scripts.at(reply, 3));
            case CANCELLED_FIRST -> new CancelledFirst(line(line, reply).skuId());
            case UNKNOWN_SKU -> new UnknownSku(line(line, reply).skuId());
        };
    }

    private static StockLine line(StockLine line, List<Long> reply) {
        if (line == null) {
            throw Scripts.unknownCode("try.lua (line index out of range)", reply);
        }
        return line;
    }
}
