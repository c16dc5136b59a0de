package io.github.flashstock.inventory.redis;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import java.io.IOException;
import java.net.ConnectException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * What a failed Redis call says about Redis: whether it failed because Redis could not be reached at all (the call
 * was never sent, so it did nothing), because Redis did not answer (sent, outcome unknown), or because Redis answered
 * with an error (Redis is there; the call was refused).
 */
public final class RedisFailures {

    /** Lettuce's words for a command it refused to queue while its connection is down (REJECT_COMMANDS). */
    private static final String REJECTED = "Commands are rejected";

    private RedisFailures() {
    }

    /**
     * Redis could not be reached, did not answer, or is not ready to serve: a lost, refused or unestablished
     * connection, a timeout, a server still loading its data or busy with a script. Not an error reply from a Redis
     * that serves.
     */
    public static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof QueryTimeoutException || t instanceof DataAccessResourceFailureException
                    || t instanceof CallNotPermittedException || t instanceof IOException
                    || t instanceof io.netty.channel.ChannelException
                    || notServing(t)
                    // the client's own failures (connection lost, closed, not connected, timed out); an error reply
                    // from the server is a RedisCommandExecutionException
                    || t instanceof io.lettuce.core.RedisException
                    && !(t instanceof io.lettuce.core.RedisCommandExecutionException)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The call certainly did nothing in Redis: it was never sent (the breaker refused it, the client had no
     * connection and refused to queue it, the connection could not be established), or the server refused it before
     * running it (loading its data, busy with a script). A timeout or a connection lost while the call was under way
     * is not such a failure: Redis may have run it.
     */
    public static boolean notSent(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CallNotPermittedException || t instanceof ConnectException
                    || t instanceof io.lettuce.core.RedisConnectionException || notServing(t)
                    || t.getMessage() != null && t.getMessage().contains(REJECTED)) {
                return true;
            }
        }
        return false;
    }

    /**
     * An error reply that says the server does not serve commands now: LOADING, BUSY; or that it refuses writes
     * before running them: OOM (its memory is full under {@code noeviction}) and MISCONF (it cannot write its AOF or
     * RDB). A script meets those at its first write, and every script here decides before it writes, so nothing of it
     * ran: as with Redis away, Tries go to the MySQL store and phases are retried until Redis takes writes again.
     */
    private static boolean notServing(Throwable t) {
        return t instanceof io.lettuce.core.RedisLoadingException || t instanceof io.lettuce.core.RedisBusyException
                || refusesWrites(t);
    }

    /** Redis refuses writes: full ({@code OOM}) or unable to persist them ({@code MISCONF}). */
    public static boolean refusesWrites(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.lettuce.core.RedisCommandExecutionException && t.getMessage() != null
                    && (t.getMessage().startsWith("OOM ") || t.getMessage().startsWith("MISCONF "))) {
                return true;
            }
        }
        return false;
    }
}
