package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;

/** Which failures run again: a deadlock's loser only, found wherever the driver's error sits. */
class DeadlocksTest {

    @Test
    void aDeadlockIsRecognisedThroughItsWrappers() {
        SQLException deadlock = new SQLException("Deadlock found when trying to get lock", "40001", 1213);
        assertThat(Deadlocks.lost(new PessimisticLockingFailureException("update", deadlock))).isTrue();
        assertThat(Deadlocks.lost(new IllegalStateException("group",
                new PessimisticLockingFailureException("update", deadlock)))).isTrue();
    }

    @Test
    void aLockWaitThatTimedOutOrAnyOtherFailureIsNot() {
        assertThat(Deadlocks.lost(new CannotAcquireLockException("update",
                new SQLException("Lock wait timeout exceeded", "40001", 1205)))).isFalse();
        assertThat(Deadlocks.lost(new DataIntegrityViolationException("insert",
                new SQLException("Duplicate entry", "23000", 1062)))).isFalse();
        assertThat(Deadlocks.lost(new IllegalStateException("no cause"))).isFalse();
    }
}
