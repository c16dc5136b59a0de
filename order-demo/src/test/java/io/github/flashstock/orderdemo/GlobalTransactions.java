package io.github.flashstock.orderdemo;

import java.time.Duration;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.core.exception.TransactionException;
import org.apache.seata.tm.api.GlobalTransaction;
import org.apache.seata.tm.api.GlobalTransactionContext;

/**
 * Global transactions begun by hand on the devstack's TC, for tests that drive the order branch without going through
 * {@code @GlobalTransactional} (the inventory service's tests have a fixture of the same name; modules share no test
 * code).
 *
 * <p>Seata keeps the current XID per thread. Begun while an XID is still bound (left by a test that failed half-way),
 * a transaction would only join that one as a participant, and its begin, commit and rollback would do nothing; so
 * every begin here unbinds first.
 */
public final class GlobalTransactions {

    /** The timeout of a transaction begun without one. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private GlobalTransactions() {
    }

    /** Begins a transaction named {@code name} (60 s timeout), bound to the calling thread. */
    public static GlobalTransaction begin(String name) throws TransactionException {
        return begin(name, DEFAULT_TIMEOUT);
    }

    /** Begins a transaction named {@code name} that the TC rolls back after {@code timeout}, bound to this thread. */
    public static GlobalTransaction begin(String name, Duration timeout) throws TransactionException {
        RootContext.unbind();
        GlobalTransaction tx = GlobalTransactionContext.getCurrentOrCreate();
        tx.begin(Math.toIntExact(timeout.toMillis()), name);
        return tx;
    }
}
