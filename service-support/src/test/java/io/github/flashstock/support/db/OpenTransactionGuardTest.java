package io.github.flashstock.support.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.mysql.cj.jdbc.JdbcConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What the guard does on each return, on mocked connections (the real server's behaviour is
 * {@code OpenTransactionGuardIT}'s, in inventory-service): it rolls back and counts an open transaction on a live
 * connection, leaves a broken one to the pool uncounted, touches nothing else, and lets other drivers through.
 */
class OpenTransactionGuardTest {

    private final DataSource pool = mock(DataSource.class);
    private final Connection pooled = mock(Connection.class);
    private final JdbcConnection driver = mock(JdbcConnection.class, RETURNS_DEEP_STUBS);
    private final Statement statement = mock(Statement.class);
    private final OpenTransactionGuard guard = new OpenTransactionGuard(pool, "test", new SimpleMeterRegistry());

    OpenTransactionGuardTest() throws SQLException {
        when(pool.getConnection()).thenReturn(pooled);
        when(pooled.isWrapperFor(JdbcConnection.class)).thenReturn(true);
        when(pooled.unwrap(JdbcConnection.class)).thenReturn(driver);
        when(pooled.createStatement()).thenReturn(statement);
        when(pooled.getAutoCommit()).thenReturn(true);
    }

    @Test
    void anOpenTransactionOnALiveConnectionIsRolledBackAndCountedBeforeThePoolTakesIt() throws SQLException {
        when(driver.getSession().getServerSession().inTransactionOnServer()).thenReturn(true);

        Connection c = guard.getConnection();
        c.close();
        c.close(); // a second close is the pool's business alone

        verify(statement).execute("ROLLBACK");
        verify(pooled, times(2)).close();
        assertThat(guard.returnedOpen()).isEqualTo(1);
    }

    @Test
    void aConnectionThatBrokeInsideATransactionIsLeftToThePoolAndNotCounted() throws SQLException {
        when(driver.getSession().getServerSession().inTransactionOnServer()).thenReturn(true);
        when(statement.execute("ROLLBACK")).thenThrow(new SQLNonTransientConnectionException("gone", "08S01"));

        guard.getConnection().close();

        verify(pooled).close();
        assertThat(guard.returnedOpen()).isZero();
    }

    @Test
    void aConnectionOutsideATransactionOrClosedByTheDriverIsNotTouched() throws SQLException {
        when(driver.getSession().getServerSession().inTransactionOnServer()).thenReturn(false);
        guard.getConnection().close();
        when(driver.getSession().getServerSession().inTransactionOnServer()).thenReturn(true);
        when(driver.isClosed()).thenReturn(true);
        guard.getConnection().close();

        verify(pooled, never()).createStatement();
        verify(statement, never()).execute(anyString());
        verify(pooled, times(2)).close();
        assertThat(guard.returnedOpen()).isZero();
    }

    @Test
    void connectionsOfOtherDriversPassThrough() throws SQLException {
        when(pooled.isWrapperFor(JdbcConnection.class)).thenReturn(false);

        assertThat(guard.getConnection()).isSameAs(pooled);
    }

    @Test
    void aGuardedConnectionIsEqualOnlyToItselfAndNamesItsPoolsClassAsItsTarget() throws SQLException {
        Connection a = guard.getConnection();
        Connection b = guard.getConnection();

        assertThat(a).isEqualTo(a).isNotEqualTo(b).isNotEqualTo(pooled);
        assertThat(a.hashCode()).isEqualTo(System.identityHashCode(a));
        assertThat(guard.getTargetClass()).isEqualTo(pool.getClass());
    }
}
