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

    /**
     * An outcome that refuses the reservation: nothing of it was reserved. The Try throws it as {@link TryRefused};
     * the API answers it with the problem type its {@link #code()} names.
     */
    sealed interface Refusal extends TryOutcome {

        /** The SKU the refusal is about; null when it is about no single SKU (the MySQL store's rate limit). */
        String skuId();

        /** The refusal in words, for the caller. */
        String message();
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

    /**
     * Fewer units than requested where the Try looked; {@code movingIn}: units of the SKU on their way into Redis
     * from the allotment as Redis refused (a handover between its two steps, {@code lua/moving.lua}).
     */
    record InsufficientStock(String skuId, int requested, long available, long movingIn) implements Refusal {

        public InsufficientStock(String skuId, int requested, long available) {
            this(skuId, requested, available, 0);
        }

        /** The units on their way would cover the line: the refusal is "not now", not "sold out". */
        public boolean coveredByUnitsMovingIn() {
            return movingIn > 0 && available + movingIn >= requested;
        }

        @Override
        public Code code() {
            return Code.INSUFFICIENT_STOCK;
        }

        @Override
        public String message() {
            return "SKU " + skuId + " has " + available + " unit(s) available, " + requested + " requested";
        }
    }

    record PurchaseLimitExceeded(String skuId, int requested, long limit, long alreadyBought) implements Refusal {
        @Override
        public Code code() {
            return Code.PURCHASE_LIMIT_EXCEEDED;
        }

        @Override
        public String message() {
            return "SKU " + skuId + " allows " + limit + " unit(s) per user; this user holds " + alreadyBought
                    + " and asked for " + requested;
        }
    }

    /** The Cancel of this reservation arrived first; the Try must not lock anything (anti-suspension). */
    record ReservationCancelled(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.RESERVATION_CANCELLED;
        }

        @Override
        public String message() {
            return "the reservation of SKU " + skuId + " was cancelled before its Try arrived";
        }
    }

    /** The SKU has no stock in Redis: not created, or not loaded yet. */
    record UnknownSku(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.UNKNOWN_SKU;
        }

        @Override
        public String message() {
            return "no SKU " + skuId;
        }
    }

    /**
     * The SKU is stale: its stock was built on another Redis process (a restart or a failover since), or Redis lost
     * it. It sells nothing from Redis until it is rebuilt from MySQL; the service starts that rebuild, and the caller
     * may try again in a moment.
     */
    record StaleSku(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.STALE_SKU;
        }

        @Override
        public String message() {
            return "SKU " + skuId + " is being rebuilt from MySQL after Redis restarted, failed over or lost it;"
                    + " nothing was reserved; try again";
        }
    }

    /**
     * Not a decision: Redis holds a booking of the line ({@code lua/book.lua}) for a Try of the MySQL store whose
     * outcome it does not know (an earlier attempt of this reservation, under way or cut short). The router asks the
     * MySQL store, whose ledger rows answer it; never "already reserved" on Redis's word.
     */
    record Booked(String skuId) implements TryOutcome {
        @Override
        public Code code() {
            return Code.BOOKED;
        }
    }

    /**
     * The SKU's sale is closed ({@code POST /admin/skus/{skuId}/close}): it sells nothing any more, in either store,
     * whatever it has left. Final: waiting changes nothing.
     */
    record SaleClosed(String skuId) implements Refusal {
        @Override
        public Code code() {
            return Code.SALE_CLOSED;
        }

        @Override
        public String message() {
            return "the sale of SKU " + skuId + " is closed; nothing was reserved";
        }
    }

    /**
     * Not a script's answer: the MySQL store cannot take the Try now (its rate limit is spent this second, or the
     * SKU's allotment lacks the units while Redis, which holds the rest, cannot be asked). Nothing was reserved; a
     * retry in a moment may succeed.
     */
    record MysqlStoreBusy(String skuId, String message) implements Refusal {
        @Override
        public Code code() {
            return Code.MYSQL_STORE_BUSY;
        }
    }

    /** The reply codes, as the script's header lists them. */
    enum Code {
        RESERVED, ALREADY_RESERVED, INSUFFICIENT_STOCK, PURCHASE_LIMIT_EXCEEDED, RESERVATION_CANCELLED, UNKNOWN_SKU,
        STALE_SKU, SALE_CLOSED, BOOKED,
        /** The last: no script answers it ({@link MysqlStoreBusy}). */
        MYSQL_STORE_BUSY;

        /** The codes {@code lua/try.lua} answers with, in order. */
        public static final int SCRIPT_CODES = 9;
    }

    /** Decodes {@code {code, line, a, b}}; {@code lines} are the lines the script was given, in order. */
    static TryOutcome decode(List<Long> reply, List<StockLine> lines) {
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Code.SCRIPT_CODES) {
            throw Scripts.unknownCode("try.lua", reply);
        }
        int lineIndex = (int) Scripts.at(reply, 1);
        StockLine line = lineIndex >= 1 && lineIndex <= lines.size() ? lines.get(lineIndex - 1) : null;
        return switch (Code.values()[code]) {
            case RESERVED -> new Reserved();
            case ALREADY_RESERVED -> new AlreadyReserved();
            case INSUFFICIENT_STOCK -> new InsufficientStock(line(line, reply).skuId(), line.quantity(),
                    Scripts.at(reply, 2), Scripts.at(reply, 3));
            case PURCHASE_LIMIT_EXCEEDED -> new PurchaseLimitExceeded(line(line, reply).skuId(), line.quantity(),
                    Scripts.at(reply, 2), Scripts.at(reply, 3));
            case RESERVATION_CANCELLED -> new ReservationCancelled(line(line, reply).skuId());
            case UNKNOWN_SKU -> new UnknownSku(line(line, reply).skuId());
            case STALE_SKU -> new StaleSku(line(line, reply).skuId());
            case SALE_CLOSED -> new SaleClosed(line(line, reply).skuId());
            case BOOKED -> new Booked(line(line, reply).skuId());
            case MYSQL_STORE_BUSY -> throw Scripts.unknownCode("try.lua", reply);
        };
    }

    private static StockLine line(StockLine line, List<Long> reply) {
        if (line == null) {
            throw Scripts.unknownCode("try.lua (line index out of range)", reply);
        }
        return line;
    }
}
