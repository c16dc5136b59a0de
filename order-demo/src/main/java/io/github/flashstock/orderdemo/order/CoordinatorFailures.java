package io.github.flashstock.orderdemo.order;

import org.apache.seata.common.exception.FrameworkException;
import org.apache.seata.core.exception.TransactionException;

/** Failures that came from Seata's coordinator or from the connection to it, not from the order's own work. */
public final class CoordinatorFailures {

    /** Where Seata's TM sends its requests to the coordinator and reads (casts) the answers. */
    static final String TM_CALLS = "org.apache.seata.tm.DefaultTransactionManager";

    private CoordinatorFailures() {
    }

    /**
     * True when {@code e} or one of its causes is Seata's ({@link TransactionException}, {@link FrameworkException}),
     * or came out of Seata's connection to the coordinator: a channel that closed while a request waited for its
     * answer surfaces as a bare RuntimeException around Netty's exception (seen when the TC is killed during a
     * GlobalBegin), not as one of Seata's typed exceptions. Likewise anything thrown by the TM's own calls to the
     * coordinator ({@code DefaultTransactionManager}: begin, commit, rollback, status), such as a begin that fails
     * with a ClassCastException when the client matches a GlobalCommitResponse to the GlobalBegin request.
     * Only the frame that threw counts there: every exception of the order's own work passes through Seata's
     * template further down its stack. And the order branch's Try refused because the coordinator had rolled its
     * transaction back before it ran ({@link OrderGroups.SuspendedTry}: the transaction's Cancel came first, nothing
     * of the order was written).
     */
    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransactionException || t instanceof FrameworkException
                    || t instanceof OrderGroups.SuspendedTry || t.getClass().getName().startsWith("io.netty.channel.")) {
                return true;
            }
            StackTraceElement[] stack = t.getStackTrace();
            if (stack.length > 0 && stack[0].getClassName().equals(TM_CALLS)) {
                return true;
            }
            for (StackTraceElement frame : t.getStackTrace()) {
                if (frame.getClassName().startsWith("org.apache.seata.core.rpc.")) {
                    return true;
                }
            }
        }
        return false;
    }
}
