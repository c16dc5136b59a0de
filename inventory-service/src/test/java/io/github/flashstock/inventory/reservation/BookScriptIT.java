package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.lines;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.mysqlstore.MirrorScript;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lua/book.lua} on the real Redis, code by code: the buyer's units counted for a Try the MySQL store is about to
 * take, all or nothing against the limit, given back when the MySQL store took nothing, and taken over by
 * {@code mirror.lua} once it did.
 */
class BookScriptIT extends ScriptITSupport {

    private static TryRequest request(String xid, String reservation, String user, Object... skuAndUnits) {
        return new TryRequest(xid, reservation, 1, user, lines(skuAndUnits));
    }

    private static String count(String sku, String user) {
        return scripts.redis.opsForValue().get(StockKeys.buyer(sku, user));
    }

    @Test
    void countsTheUnitsAndWritesTheMySqlStoresRecordMarkedBooked() {
        String sku = scripts.sku(0, 2, 1);
        String xid = xid();

        assertThat(scripts.book.book(request(xid, "order-1", "ada", sku, 2)))
                .isEqualTo(new BookScript.Booking.Booked());

        assertThat(count(sku, "ada")).isEqualTo("2");
        assertThat(scripts.redis.<String, String>opsForHash().entries(StockKeys.fence(sku, xid, "order-1")))
                .containsEntry("state", "MYSQL").containsEntry("counted", "2").containsEntry("booked", "1");
        // a replay counts nothing more; try.lua sends a replay of the Try to the MySQL store, which alone knows whether
        // it took the reservation (aTryThatMeetsItsOwnBookingIsToldBookedUntilTheMirrorMetTheRow)
        assertThat(scripts.book.book(request(xid, "order-1", "ada", sku, 2)))
                .isEqualTo(new BookScript.Booking.Booked());
        assertThat(count(sku, "ada")).isEqualTo("2");
        assertThat(scripts.tryScript.run(xid, "order-1", 2, "ada", lines(sku, 2)))
                .isEqualTo(new TryOutcome.Booked(sku));
    }

    @Test
    void refusesAboveTheLimitInEitherStoreAndWritesNothing() {
        String first = scripts.sku(10, 0, 1);
        String limited = scripts.sku(10, 3, 1);
        scripts.tryScript.run(xid(), "order-r", 1, "ada", lines(limited, 2));
        String xid = xid();

        // Redis holds 2 of ada's units: 2 more would make 4 of 3, and the line before it counts nothing either
        assertThat(scripts.book.book(request(xid, "order-2", "ada", first, 1, limited, 2)))
                .isEqualTo(new BookScript.Booking.LimitExceeded(limited, 3, 2));

        assertThat(count(first, "ada")).isNull();
        assertThat(count(limited, "ada")).isEqualTo("2");
        assertThat(scripts.reader.fenceState(first, xid, "order-2")).isEmpty();
        assertThat(scripts.book.book(request(xid, "order-2", "ada", first, 1, limited, 1)))
                .isEqualTo(new BookScript.Booking.Booked());
        assertThat(count(limited, "ada")).isEqualTo("3");
    }

    @Test
    void aLineWithARecordOfAnotherKindOrAnUnknownSkuBooksNothing() {
        String sku = scripts.sku(10, 2, 1);
        String xid = xid();
        scripts.tryScript.run(xid, "order-1", 1, "ada", lines(sku, 1));

        assertThat(scripts.book.book(request(xid, "order-1", "ada", sku, 1)))
                .isEqualTo(new BookScript.Booking.NotBooked(sku, "the reservation has a record of another kind in"
                        + " Redis"));
        assertThat(scripts.book.book(request(xid(), "order-2", "ada", "no-such-sku-" + xid, 1)))
                .isInstanceOf(BookScript.Booking.NotBooked.class);
        assertThat(count(sku, "ada")).isEqualTo("1");
    }

    /**
     * A Try of a reservation that meets its own booking does not learn from Redis whether the MySQL store took it (an
     * earlier attempt may be under way, or cut short): BOOKED, for the service to ask the MySQL store; once the mirror
     * has met the MySQL store's row, the same Try is a replay.
     */
    @Test
    void aTryThatMeetsItsOwnBookingIsToldBookedUntilTheMirrorMetTheRow() {
        String sku = scripts.sku(0, 5, 1);
        String xid = xid();
        scripts.book.book(request(xid, "order-1", "ada", sku, 2));

        TryOutcome booked = scripts.tryScript.run(xid, "order-1", 2, "ada", lines(sku, 2));
        assertThat(scripts.mirror.run(sku, xid, "order-1", 2, "ada", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 2));
        TryOutcome replay = scripts.tryScript.run(xid, "order-1", 3, "ada", lines(sku, 2));

        assertThat(booked).isEqualTo(new TryOutcome.Booked(sku));
        assertThat(replay).isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(count(sku, "ada")).as("counted once").isEqualTo("2");
    }

    @Test
    void releaseGivesBackOnlyWhatIsStillBooked() {
        String sku = scripts.sku(0, 5, 1);
        String booked = xid();
        String mirrored = xid();
        scripts.book.book(request(booked, "order-b", "ada", sku, 2));
        scripts.book.book(request(mirrored, "order-m", "ada", sku, 1));
        // the MySQL store took order-m, and the mirror met its row: the record is the row's from now on
        assertThat(scripts.mirror.run(sku, mirrored, "order-m", 1, "ada", "TRIED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 1));
        assertThat(count(sku, "ada")).as("the mirror counted nothing twice").isEqualTo("3");

        assertThat(scripts.book.release(booked, "order-b", "ada", lines(sku, 2))).isEqualTo(1);
        assertThat(scripts.book.release(mirrored, "order-m", "ada", lines(sku, 1))).isZero();
        assertThat(scripts.book.release(booked, "order-b", "ada", lines(sku, 2))).as("a replay").isZero();

        assertThat(count(sku, "ada")).isEqualTo("1");
        assertThat(scripts.reader.fenceState(sku, booked, "order-b")).isEmpty();
        assertThat(scripts.reader.fenceState(sku, mirrored, "order-m")).contains("MYSQL");
    }

    @Test
    void theMirrorEndsABookingAsItEndsAnyRecordOfTheMySqlStore() {
        String sku = scripts.sku(0, 5, 1);
        String xid = xid();
        scripts.book.book(request(xid, "order-1", "ada", sku, 2));

        assertThat(scripts.mirror.run(sku, xid, "order-1", 2, "ada", "CANCELLED", RETENTION))
                .isEqualTo(new MirrorScript.Outcome(MirrorScript.Code.MIRRORED, 0));

        assertThat(count(sku, "ada")).isNull();
        assertThat(scripts.reader.fenceState(sku, xid, "order-1")).contains("CANCELLED");
        assertThat(scripts.book.release(xid, "order-1", "ada", lines(sku, 2))).isZero();
        assertThat(List.of(scripts.redis.hasKey(StockKeys.fence(sku, xid, "order-1")))).containsExactly(true);
    }
}
