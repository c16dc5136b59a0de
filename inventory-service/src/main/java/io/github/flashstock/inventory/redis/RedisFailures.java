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
                || refusesWrites(t) || slotElsewhere(t);
    }

    /**
     * A script met a key its node does not serve now: the slot is being migrated to another node (the key moved
     * already, or does not exist yet and would be created there; Redis 7 says "non local key", Valkey 8 "undeclared
     * keys were accessed during rehashing of the slot"), or the cluster is down. Every script of the sale
     * (try, book, confirm, cancel) touches each key it may write before its first write ({@code touch_keys} in
     * {@code lua/prelude.lua}), so such an error comes before anything was written: as with Redis away, the Try goes
     * to the MySQL store and the phase is retried until the migration ends.
     */
    public static boolean slotElsewhere(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.lettuce.core.RedisCommandExecutionException && t.getMessage() != null
                    && (t.getMessage().contains("Script attempted to access a non local key")
                    // Valkey 8's words for the same, for a key not (or no longer) on a node whose slot is migrating
                    || t.getMessage().contains("undeclared keys were accessed during rehashing of the slot")
                    || t.getMessage().contains("Script attempted to execute a command while the cluster is down"))) {
                return true;
            }
        }
        return false;
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
