package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.Scripts;
import java.util.List;

/**
 * What a second phase did to one SKU of one reservation: {@code lua/confirm.lua} or {@code lua/cancel.lua} in Redis,
 * or the MySQL store's phase for a reservation whose Try ran there ({@code MysqlReservations}). Both scripts reply
 * with the first six codes, named as here (the sixth, FAILED, is thrown rather than answered); the Confirm also with
 * the last four, for a reservation it finds no record of, or whose Try was refused. {@link #tag()} is the name in
 * metrics and logs.
 */
public sealed interface PhaseOutcome {

    /** Units the fence record holds (0 when there is no record). */
    long quantity();

    /** The script's reply code for this outcome. */
    Code code();

    /** The outcome's name in metrics and logs: the reply code in lower case. */
    default String tag() {
        return code().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The record moved from TRIED to the phase's end state: stock moved now. */
    record Applied(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.APPLIED;
        }
    }

    /** The record was already in the phase's end state: a replay, nothing changed. */
    record AlreadyApplied(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.ALREADY_APPLIED;
        }
    }

    /**
     * No record. For Confirm: the Try never reached Redis (nothing changed). For Cancel: an empty rollback,
     * now fenced by a tombstone so a late Try is refused.
     */
    record NoRecord() implements PhaseOutcome {
        @Override
        public long quantity() {
            return 0;
        }

        @Override
        public Code code() {
            return Code.NO_RECORD;
        }
    }

    /** The record ended the other way (Confirm met CANCELLED, Cancel met CONFIRMED): refused, nothing changed. */
    record EndedOtherwise(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.ENDED_OTHERWISE;
        }
    }

    /**
     * The Redis record says the MySQL store holds the reservation (its Try ran there; {@code lua/mirror.lua} wrote
     * the record): nothing changed in Redis, the phase is the MySQL store's.
     */
    record HeldInMysql(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.HELD_IN_MYSQL;
        }
    }

    /**
     * Confirm only: no record, and the units the committed transaction holds were taken from available stock and
     * sold (a record now says so).
     */
    record TakenUnrecorded(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.TAKEN_UNRECORDED;
        }
    }

    /**
     * Confirm only: no record, and fewer units available than the committed transaction holds: sold to someone
     * else. Nothing was taken; Redis keeps the finding for the reconciler ({@code quantity} = the units).
     */
    record Oversold(long quantity) implements PhaseOutcome {
        @Override
        public Code code() {
            return Code.OVERSOLD;
        }
    }

    /**
     * Confirm only, asked not to take unrecorded units: no record, the SKU exists, nothing changed. The caller finds out whether the
     * MySQL store holds the reservation before it lets the script take the units (an unrecorded confirm).
     */
    record Unrecorded() implements PhaseOutcome {
        @Override
        public long quantity() {
            return 0;
        }

        @Override
        public Code code() {
            return Code.UNRECORDED;
        }
    }

    /**
     * Confirm only: the record says this service refused the reservation's Try (a REFUSED record in Redis, or a
     * REFUSED ledger row of the MySQL store), yet the coordinator committed. Nothing was taken; the caller reports it
     * (a finding, a metric) and answers the coordinator with success, since no retry could change anything.
     */
    record Refused() implements PhaseOutcome {
        @Override
        public long quantity() {
            return 0;
        }

        @Override
        public Code code() {
            return Code.REFUSED;
        }
    }

    /**
     * The reply codes in order: both scripts' APPLIED to FAILED (which is no outcome: {@link #decode} throws it),
     * then the Confirm's own four.
     */
    enum Code {
        APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE, HELD_IN_MYSQL, FAILED, TAKEN_UNRECORDED, OVERSOLD, UNRECORDED,
        REFUSED
    }

    /**
     * @throws IllegalStateException when the script answers FAILED (it raised an error for this reservation, which
     *                               Redis's log names): the phase fails and the coordinator retries it
     */
    static PhaseOutcome decode(String script, List<Long> reply) {
        int code = (int) Scripts.at(reply, 0);
        long quantity = Scripts.at(reply, 1);
        if (code < 0 || code >= Code.values().length) {
            throw Scripts.unknownCode(script, reply);
        }
        return switch (Code.values()[code]) {
            case APPLIED -> new Applied(quantity);
            case ALREADY_APPLIED -> new AlreadyApplied(quantity);
            case NO_RECORD -> new NoRecord();
            case ENDED_OTHERWISE -> new EndedOtherwise(quantity);
            case HELD_IN_MYSQL -> new HeldInMysql(quantity);
            case TAKEN_UNRECORDED -> new TakenUnrecorded(quantity);
            case OVERSOLD -> new Oversold(quantity);
            case UNRECORDED -> new Unrecorded();
            case REFUSED -> new Refused();
            case FAILED -> throw new IllegalStateException(script + " failed for this reservation; Redis's log says"
                    + " why");
        };
    }
}
