package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;

/** Which failures the MySQL store runs again: a deadlock's loser only, found wherever the driver's error sits. */
class DeadlockTest {

    @Test
    void aDeadlockIsRecognisedThroughItsWrappers() {
        SQLException deadlock = new SQLException("Deadlock found when trying to get lock", "40001", 1213);
        assertThat(MysqlReservations.deadlock(new PessimisticLockingFailureException("update", deadlock))).isTrue();
        assertThat(MysqlReservations.deadlock(new IllegalStateException("group",
                new PessimisticLockingFailureException("update", deadlock)))).isTrue();
    }

    @Test
    void aLockWaitThatTimedOutOrAnyOtherFailureIsNot() {
        assertThat(MysqlReservations.deadlock(new CannotAcquireLockException("update",
                new SQLException("Lock wait timeout exceeded", "40001", 1205)))).isFalse();
        assertThat(MysqlReservations.deadlock(new DataIntegrityViolationException("insert",
                new SQLException("Duplicate entry", "23000", 1062)))).isFalse();
        assertThat(MysqlReservations.deadlock(new IllegalStateException("no cause"))).isFalse();
    }
}
