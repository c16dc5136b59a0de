package io.github.flashstock.orderdemo.order;

import org.apache.seata.common.exception.FrameworkException;
import org.apache.seata.core.exception.TransactionException;

/** Failures that came from Seata's coordinator or from the connection to it, not from the order's own work. */
public final class CoordinatorFailures {

    private CoordinatorFailures() {
    }

    /**
     * True when {@code e} or one of its causes is Seata's ({@link TransactionException}, {@link FrameworkException}),
     * or came out of Seata's connection to the coordinator: a channel that closed while a request waited for its
     * answer surfaces as a bare RuntimeException around Netty's exception (seen when the TC is killed during a
     * GlobalBegin), not as one of Seata's typed exceptions.
     */
    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransactionException || t instanceof FrameworkException
                    || t.getClass().getName().startsWith("io.netty.channel.")) {
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
