package io.github.flashstock.inventory.reservation;

import java.util.Optional;

/**
 * A store that holds reservations: the Redis store ({@link RedisStore}) or the MySQL store
 * ({@code mysqlstore.MysqlStore}). Each answers with outcomes, never with exceptions for a business answer;
 * {@link StoreRouter} picks the store for every Try and every line of a second phase.
 */
public interface ReservationStore {

    /** The MySQL store's bean name. */
    String MYSQL = "mysqlStore";

    /** The store's name in metrics, logs and the ledger: {@code redis} or {@code mysql}. */
    String name();

    /** The Try of one slot group, all or nothing. */
    TryOutcome reserve(TryRequest request, TryRoute route);

    /**
     * One line of a second phase.
     *
     * @param lastWord the other store holds nothing of the line: a Confirm in Redis then takes the units from
     *                 available stock (an unrecorded confirm), a Cancel in the MySQL store writes its own tombstone
     * @return empty when this store holds nothing of the line (the MySQL store only)
     */
    Optional<PhaseOutcome> end(Phase phase, PhaseLine line, boolean lastWord);

    /**
     * Records that the reservation's Try was refused on this line, so that a later Confirm takes nothing; units an
     * earlier slot group of the same Try holds go back at once ({@link PhaseOutcome.Applied}).
     */
    PhaseOutcome refuse(PhaseLine line, TryOutcome.Refusal refusal);
}
