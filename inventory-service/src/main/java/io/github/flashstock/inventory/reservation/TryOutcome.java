package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;

/**
 * What {@code lua/try.lua} decided for a reservation. One name per outcome: the script's reply code, this type, the
 * metric tag ({@link #tag()}) and, for a refusal, the problem type all say the same thing.
 */
public sealed interface TryOutcome {

    /** The script's reply code for this outcome. */
    Code code();

    /** The outcome's name in metrics and logs: the reply code in lower case. */
    default String tag() {
        return code().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** An outcome that refuses the reservation: nothing of it was reserved. */
    sealed interface Refusal extends TryOutcome {

        /** The refusal as the named failure the Try throws (and the API turns into its problem type). */
        ReservationRefused exception();
    }

    /** Every line without a record is now reserved. */
    record Reserved() implements TryOutcome {
        @Override
        public Code code() {
            return Code.RESERVED;
        }
    }

    /** A replay of a Try that already reserved (same xid and reservation id): nothing more was deducted. */
    record AlreadyReserved() implements TryOutcome {
        @Override
        public Code code() {
            return Code.ALREADY_RESERVED;
        }
    }

    record InsufficientStock(String skuId, int requested, long available) implements Refusal {
        @Override
        public Code code() {
            return Code.INSUFFICIENT_STOCK;
        }

        @Override
        public ReservationRefused exception() {
            return new io.github.flashstock.inventory.reservation.InsufficientStock(skuId, requested, available);
        }
    }

    record PurchaseLimitExceeded(String skuId, int requested, long limit, long alreadyBought) implements Refusal {
        @Override
        public Code code() {
            return Code.PURCHASE_LIMIT_EXCEEDED;
        }

        @Override
        public ReservationRefused exception() {
            return new io.github.flashstock.inventory.reservation.PurchaseLimitExceeded(skuId, requested, limit, alreadyBought);
        }
    }

    /** The Cancel of this reservation arrived first; the Try must not lock anything (anti-suspension). */
    record ReservationCancelled(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.RESERVATION_CANCELLED;
        }

        @Override
        public ReservationRefused exception() {
            return new io.github.flashstock.inventory.reservation.ReservationCancelled(skuId);
        }
    }

    /** The SKU has no stock in Redis: not created, or not loaded yet. */
    record UnknownSku(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.UNKNOWN_SKU;
        }

        @Override
        public ReservationRefused exception() {
            return new io.github.flashstock.inventory.reservation.UnknownSku(skuId);
        }
    }

    /**
     * The SKU's stock was built on another Redis process (a restart or a failover since): it sells nothing until it
     * is rebuilt from the durable record; the service starts that rebuild, and the caller may try again.
     */
    record StaleSku(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.STALE_SKU;
        }

        @Override
        public ReservationRefused exception() {
            return new StockRecovering(skuId);
        }
    }

    /** The reply codes, as the script's header lists them. */
    enum Code {
        RESERVED, ALREADY_RESERVED, INSUFFICIENT_STOCK, PURCHASE_LIMIT_EXCEEDED, RESERVATION_CANCELLED, UNKNOWN_SKU,
        STALE_SKU
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
            case PURCHASE_LIMIT_EXCEEDED -> new PurchaseLimitExceeded(line(line, reply).skuId(), line.quantity(),
                    Scripts.at(reply, 2), Scripts.at(reply, 3));
            case RESERVATION_CANCELLED -> new ReservationCancelled(line(line, reply).skuId());
            case UNKNOWN_SKU -> new UnknownSku(line(line, reply).skuId());
            case STALE_SKU -> new StaleSku(line(line, reply).skuId());
        };
    }

    private static StockLine line(StockLine line, List<Long> reply) {
        if (line == null) {
            throw Scripts.unknownCode("try.lua (line index out of range)", reply);
        }
        return line;
    }
}
