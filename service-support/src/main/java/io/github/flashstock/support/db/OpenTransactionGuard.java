package io.github.flashstock.support.db;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.TargetClassAware;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source that never lets a connection go back to its pool inside a server transaction.
 *
 * <p>A pool such as HikariCP rolls back, on return, only a transaction it knows of: one begun with
 * {@code setAutoCommit(false)}. A transaction begun by SQL ({@code START TRANSACTION}, which the services' one-trip
 * statements send on a connection in autocommit) is invisible to it. If such a connection were returned before its
 * {@code COMMIT} or {@code ROLLBACK}, its next borrower would run inside that transaction: it would see rows nobody
 * committed as if they were, and its own commit or rollback would decide them. This guard asks the driver on every
 * return whether the server said, in its last reply, that a transaction is open (Connector/J keeps that status from
 * each reply; asking costs no round trip). If it is, the guard rolls it back before the pool takes the connection,
 * logs an error with the stack of the code that returned it, and counts it in
 * {@value #METER} (tag {@code data-source}): a count above zero is a defect to find, never a state to live with.
 *
 * <p>Connections of other drivers pass through unguarded. The guard names its pool's class as its target class, as a
 * proxy does, so that what treats a pool by its class still does (Spring Cloud's refresh leaves a HikariCP pool
 * alone, {@code spring.cloud.refresh.never-refreshable}, and would otherwise try to bind its settings to the guard).
 */
public final class OpenTransactionGuard extends DelegatingDataSource implements TargetClassAware {

    /** Connections returned inside a server transaction, rolled back by the guard. */
    public static final String METER = "flashstock.db.open-transactions-returned";
    /** The first words of the error line each such return writes (the drills look for it in the services' logs). */
    public static final String LOG_MARK = "A connection was returned to the pool inside a server transaction";

    private static final Logger log = LoggerFactory.getLogger(OpenTransactionGuard.class);

    private final Counter returnedOpen;
    private final String name;

    public OpenTransactionGuard(DataSource target, String name, MeterRegistry meters) {
        super(target);
        this.name = name;
        this.returnedOpen = Counter.builder(METER)
                .description("connections returned to the pool inside a server transaction, which the guard rolled"
                        + " back")
                .tag("data-source", name)
                .register(meters);
    }

    @Override
    public Class<?> getTargetClass() {
        return obtainTargetDataSource().getClass();
    }

    /** Connections returned inside a transaction so far. */
    public long returnedOpen() {
        return (long) returnedOpen.count();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return guarded(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return guarded(super.getConnection(username, password));
    }

    private Connection guarded(Connection c) throws SQLException {
        if (!c.isWrapperFor(com.mysql.cj.jdbc.JdbcConnection.class)) {
            return c;
        }
        com.mysql.cj.jdbc.JdbcConnection driver = c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class);
        return (Connection) Proxy.newProxyInstance(OpenTransactionGuard.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new Handler(c, driver));
    }

    /**
     * Rolls back a transaction the server still holds open, before the connection goes back to the pool. A connection
     * whose rollback fails is broken (the server, say, was killed mid-statement): the pool discards it and the server
     * ends its transaction with the session, so that is no defect of the code and is not counted.
     */
    void beforeReturn(Connection c, com.mysql.cj.jdbc.JdbcConnection driver) {
        boolean open;
        try {
            open = !driver.isClosed() && driver.getSession().getServerSession().inTransactionOnServer();
        } catch (SQLException | RuntimeException e) {
            return; // broken: as below
        }
        if (!open) {
            return;
        }
        Object autoCommit = autoCommit(c);
        try (Statement s = c.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException e) {
            log.warn("A connection of data source {} went back to the pool broken inside a transaction ({}); the pool"
                    + " discards it, and the server ends the transaction with the session", name, e.toString());
            return;
        }
        returnedOpen.increment();
        log.error(LOG_MARK + " (data source {}, autocommit as the driver sees it: {}); rolled back."
                + " The stack shows the code that returned it", name, autoCommit, new IllegalStateException(
                "connection returned inside a server transaction"));
    }

    private static Object autoCommit(Connection c) {
        try {
            return c.getAutoCommit();
        } catch (SQLException e) {
            return "unknown";
        }
    }

    /** Passes every call to the pool's connection; on {@code close()}, checks it first. */
    private final class Handler implements InvocationHandler {

        private final Connection target;
        private final com.mysql.cj.jdbc.JdbcConnection driver;
        private boolean closed;

        Handler(Connection target, com.mysql.cj.jdbc.JdbcConnection driver) {
            this.target = target;
            this.driver = driver;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "guarded " + target;
                case "close":
                    if (!closed) {
                        closed = true;
                        beforeReturn(target, driver);
                    }
                    break;
                default:
                    break;
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
