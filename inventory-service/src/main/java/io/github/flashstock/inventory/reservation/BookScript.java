package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.DurableWait;
import io.github.flashstock.inventory.redis.RedisDurability;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs {@code lua/book.lua}: counts a reservation the MySQL store is about to take towards the buyer's limit in
 * Redis ({@link #book}), all or nothing over its lines (one slot's), and gives the count back when the MySQL store took
 * nothing ({@link #release}). The only place that builds the script's keys and arguments and reads its reply.
 */
@Component
public class BookScript {

    private static final RedisScript<List<Long>> SCRIPT = Scripts.load("book.lua");

    /** The reply codes, as the script's header lists them (BOOK's, then RELEASE's). */
    public enum Code {
        BOOKED, PURCHASE_LIMIT_EXCEEDED, RECORDED_OTHERWISE, UNKNOWN_SKU, RELEASED
    }

    /** What {@link #book} found, as the script's header lists it. */
    public sealed interface Booking {
        /** Every line is counted (now, or by an earlier call). */
        record Booked() implements Booking {
        }

        /** The buyer would hold more than the SKU's limit: nothing was counted. */
        record LimitExceeded(String skuId, long limit, long held) implements Booking {
        }

        /** A line has a record of another kind, or the SKU no stock hash: nothing was counted. */
        record NotBooked(String skuId, String why) implements Booking {
        }
    }

    private final StringRedisTemplate redis;
    private final DurableWait durableWait;

    /** Calls answered as soon as the server answers ({@code inventory.durability} fsync or none). */
    public BookScript(StringRedisTemplate redis) {
        this.redis = redis;
        this.durableWait = null;
    }

    /** Under {@code inventory.durability: replica}, each call waits for its writes to reach replicas, as a Try's do. */
    @Autowired
    public BookScript(StringRedisTemplate redis, RedisDurability durability) {
        this.redis = redis;
        this.durableWait = durability.durableWait().orElse(null);
    }

    public Booking book(TryRequest request) {
        List<Long> reply = run("BOOK", request.xid(), request.reservationId(), request.userId(), request.lines());
        int code = (int) Scripts.at(reply, 0);
        int line = (int) Scripts.at(reply, 1);
        String sku = line > 0 && line <= request.lines().size() ? request.lines().get(line - 1).skuId() : null;
        if (code < 0 || code > Code.UNKNOWN_SKU.ordinal()) {
            throw Scripts.unknownCode("book.lua BOOK", reply);
        }
        return switch (Code.values()[code]) {
            case BOOKED -> new Booking.Booked();
            case PURCHASE_LIMIT_EXCEEDED -> new Booking.LimitExceeded(sku, Scripts.at(reply, 2), Scripts.at(reply, 3));
            case RECORDED_OTHERWISE -> new Booking.NotBooked(sku, "the reservation has a record of another kind in"
                    + " Redis");
            default -> new Booking.NotBooked(sku, "the SKU has no stock in Redis");
        };
    }

    /** @return how many lines gave a booking back */
    public long release(String xid, String reservationId, String userId, List<StockLine> lines) {
        List<Long> reply = run("RELEASE", xid, reservationId, userId, lines);
        if (Scripts.at(reply, 0) != Code.RELEASED.ordinal()) { // RELEASE's only code
            throw Scripts.unknownCode("book.lua RELEASE", reply);
        }
        return Scripts.at(reply, 2);
    }

    private List<Long> run(String mode, String xid, String reservationId, String userId, List<StockLine> lines) {
        List<String> keys = new ArrayList<>(lines.size());
        List<String> args = new ArrayList<>(List.of(mode, xid, reservationId, userId));
        for (StockLine line : lines) {
            keys.add(StockKeys.stock(line.skuId()));
            args.add(Integer.toString(line.quantity()));
        }
        List<Long> reply = durableWait == null ? redis.execute(SCRIPT, keys, args.toArray())
                : TryScript.longs(durableWait.run(SCRIPT, keys, args));
        if (reply == null || reply.size() != 4) {
            throw Scripts.unknownCode("book.lua " + mode, reply);
        }
        return reply;
    }
}
