package io.github.flashstock.inventory;

import java.time.Duration;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.core.exception.TransactionException;
import org.apache.seata.tm.api.GlobalTransaction;
import org.apache.seata.tm.api.GlobalTransactionContext;

/**
 * Global transactions on the devstack's TC for tests that play the order service: they begin one, send its XID with
 * their Tries, and commit or roll it back, as the order service's TM would.
 *
 * <p>Seata keeps the current XID per thread ({@link RootContext}). A transaction begun while an XID is still bound
 * (left by a test that failed half-way, or by an earlier task of a pooled thread) would only join that one as a
 * participant, and its begin, commit and rollback would do nothing; so every begin here unbinds first.
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

    /**
     * Begins a transaction and leaves the calling thread unbound, for one a test holds open while it does other work
     * on the thread (other transactions among it); it ends with {@link #commit} or {@link #rollback}.
     */
    public static GlobalTransaction beginUnbound(String name) throws TransactionException {
        return beginUnbound(name, DEFAULT_TIMEOUT);
    }

    /** Begins a transaction as {@link #beginUnbound(String)} does, with the given timeout. */
    public static GlobalTransaction beginUnbound(String name, Duration timeout) throws TransactionException {
        GlobalTransaction tx = begin(name, timeout);
        RootContext.unbind();
        return tx;
    }

    /**
     * Commits {@code tx}, bound or not, on whatever thread began it: its XID is bound to this thread for the commit,
     * and the thread is left unbound.
     */
    public static void commit(GlobalTransaction tx) throws TransactionException {
        RootContext.bind(tx.getXid());
        try {
            tx.commit();
        } finally {
            RootContext.unbind();
        }
    }

    /** Rolls {@code tx} back, as {@link #commit} commits it. */
    public static void rollback(GlobalTransaction tx) throws TransactionException {
        RootContext.bind(tx.getXid());
        try {
            tx.rollback();
        } finally {
            RootContext.unbind();
        }
    }
}
