package io.github.flashstock.inventory.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ConnectionIntent;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.support.ConnectionPoolSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs a script so that it is answered only once its writes are as durable as {@code inventory.durability} promises:
 * on {@code replicas} replicas ({@code replica}: a {@code WAIT} behind the script), or on the primary's disk and on
 * {@code replicas} replicas' disks ({@code fsync-and-replica}: a {@code WAITAOF} behind the script, Redis 7.2+ and
 * Valkey). The script and the wait go out together on a connection of its own to the primary that owns the keys'
 * slot. Redis makes both waits wait for the offset of their connection's last write, so the wait covers exactly this
 * call's writes, on the node that ran them; a coalesced call of many Tries needs one wait.
 *
 * <p>Connections are pooled and lent to one call at a time: a wait blocks its connection until the server answers,
 * and it must not hold up the shared connection every other command of the service goes through. On a Redis
 * Cluster each pooled connection is a cluster connection of its own, and the call goes to its node connection for
 * the slot's primary, which does not follow redirections: a slot that moved, or a primary that became a replica,
 * fails the call rather than waiting on the wrong node. Through Sentinel, each new connection asks the Sentinels
 * for the primary, so a connection made after a failover reaches the new one.
 *
 * <p>A call whose writes were not durable in time fails with {@link NotDurable}: the writes did happen on the
 * primary, so a Try that fails so rolls its global transaction back and the Cancel releases them.
 */
public final class DurableWait implements AutoCloseable {

    private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

    /** {@code WAITAOF}, which Lettuce has no method for. */
    private enum Command implements ProtocolKeyword {
        WAITAOF;

        private final byte[] bytes = name().getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
            return bytes;
        }
    }

    /** The service's current client (a connection factory that was stopped and started has a new one). */
    private final Supplier<AbstractRedisClient> client;
    private final AtomicLong lastRefresh = new AtomicLong();
    private final GenericObjectPool<StatefulConnection<String, String>> pool;
    private final boolean onDisk;
    private final int replicas;
    private final Duration timeout;
    private final Duration slack;

    /**
     * @param client the service's Lettuce client ({@link RedisClient} or {@link RedisClusterClient}), asked for
     *               each new connection; its URI, credentials and options are reused
     * @param onDisk whether a call's writes must also be on the primary's disk ({@code WAITAOF}); otherwise
     *               {@code replicas} replicas having them is enough ({@code WAIT})
     * @param replicas how many replicas must have a call's writes (on their disks when {@code onDisk}) for it to be
     *                 answered
     * @param timeout how long a call waits for them
     * @param connections how many calls can wait at once
     */
    public DurableWait(Supplier<AbstractRedisClient> client, boolean onDisk, int replicas, Duration timeout,
                       int connections) {
        if (replicas < (onDisk ? 0 : 1) || connections < 1 || timeout.toMillis() < 1) {
            // (a wait with 0 ms waits for ever)
            throw new IllegalArgumentException("replicas must be at least " + (onDisk ? 0 : 1) + ", connections at"
                    + " least 1 and the timeout at least 1 ms");
        }
        this.onDisk = onDisk;
        this.client = client;
        this.replicas = replicas;
        this.timeout = timeout;
        // how long the server may take to answer beyond the wait itself (the service's Redis timeout is 2 s)
        this.slack = Duration.ofSeconds(2);
        Supplier<StatefulConnection<String, String>> connect = () -> {
            AbstractRedisClient current = client.get();
            if (current instanceof RedisClusterClient cluster) {
                return cluster.connect(StringCodec.UTF8);
            }
            if (current instanceof RedisClient standalone) {
                StatefulRedisConnection<String, String> connection = standalone.connect(StringCodec.UTF8);
                connection.setTimeout(timeout.plus(slack));
                return connection;
            }
            throw new IllegalStateException("unknown Lettuce client " + current.getClass().getName());
        };
        GenericObjectPoolConfig<StatefulConnection<String, String>> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(connections);
        config.setMaxIdle(connections);
        config.setMaxWait(timeout.plus(slack));
        config.setTestOnBorrow(true);
        config.setJmxEnabled(false);
        this.pool = ConnectionPoolSupport.createGenericObjectPool(connect, config, false);
    }

    public int replicas() {
        return replicas;
    }

    /** A key that lives a minute, written only to see the wait met. */
    private static final RedisScript<List> PROBE = RedisScript.of(
            "redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000) return {1}", List.class);

    /**
     * Writes {@code key} (it expires after a minute) and waits as every call waits: the start check's proof that the
     * servers acknowledge in time.
     *
     * @throws NotDurable when they did not
     */
    public void probe(String key) {
        run(PROBE, List.of(key), List.of(Long.toString(System.currentTimeMillis())));
    }

    /**
     * Returns once everything the primary owning {@code key}'s slot wrote before this call is as durable as a call's
     * writes: it writes {@code key} (it expires after a minute) and waits as every call waits. Replicas acknowledge,
     * and the primary syncs its AOF, in the order of the replication stream, so this wait covers every earlier write
     * of that primary, whoever made it: a reader of what others wrote (the stock events' forwarder) learns that it
     * may pass it on.
     *
     * @throws NotDurable when the earlier writes were not durable within the timeout (they may yet be lost)
     */
    public void writtenBefore(String key) {
        probe(key);
    }

    /** Whether a call waits for the primary's disk too ({@code WAITAOF}). */
    public boolean onDisk() {
        return onDisk;
    }

    /**
     * Runs {@code script} on the primary owning the slot of {@code keys} (which must all hash to one slot), then
     * waits until its writes are durable: on {@link #replicas()} replicas, and on the primary's disk and theirs when
     * {@link #onDisk()}.
     *
     * @return the script's reply, each integer as a {@link Long}
     * @throws NotDurable when the writes were not so within the timeout
     */
    public List<Object> run(RedisScript<?> script, List<String> keys, List<String> args) {
        StatefulConnection<String, String> connection = borrow();
        RedisAsyncCommands<String, String> commands;
        try {
            commands = primaryFor(connection, keys.get(0)).async();
        } catch (RuntimeException e) {
            // nothing was sent: the connection can serve again once the primary is back or known
            giveBack(connection, true);
            throw e instanceof DataAccessException known ? known : translate(e);
        }
        boolean reusable = false;
        try {
            String[] k = keys.toArray(String[]::new);
            String[] a = args.toArray(String[]::new);
            Answer answer = call(commands, commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, k, a));
            if (answer.error() instanceof RedisNoScriptException) {
                // the server does not know the script yet (new, restarted or flushed): send it whole, once
                answer = call(commands, commands.eval(script.getScriptAsString(), ScriptOutputType.MULTI, k, a));
            }
            reusable = true;
            if (answer.error() != null) {
                throw translate(answer.error());
            }
            if (answer.local() < (onDisk ? 1 : 0) || answer.acknowledged() < replicas) {
                throw new NotDurable(onDisk, answer.local(), answer.acknowledged(), replicas, timeout);
            }
            return answer.reply();
        } finally {
            giveBack(connection, reusable);
        }
    }

    /**
     * The script's reply, or the error of the script or of the wait; whether the primary had the writes on disk
     * (1 or 0; 0 under {@code WAIT}) and how many replicas acknowledged them.
     */
    private record Answer(List<Object> reply, Throwable error, long local, long acknowledged) {
    }

    /**
     * Sends the wait right behind the script, on the same connection, and waits for both answers. Throws only when
     * an answer did not come (the connection is then not lent again).
     */
    private Answer call(RedisAsyncCommands<String, String> commands, RedisFuture<List<Object>> script) {
        long start = System.nanoTime();
        long waitEnd = start + timeout.toNanos();
        long deadline = start + timeout.plus(slack).toNanos();
        boolean sliced = onDisk && replicas > 0;
        RedisFuture<?> acks = sendWait(commands, sliced ? Math.min(SLICE_MILLIS, timeout.toMillis())
                : timeout.toMillis());
        List<Object> reply = null;
        Throwable error = null;
        try {
            reply = script.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            error = answered(e.getCause());
        } catch (java.util.concurrent.CancellationException e) {
            throw new DataAccessResourceFailureException("the Redis call was cancelled (connection closed)", e);
        } catch (TimeoutException e) {
            throw new QueryTimeoutException("Redis did not answer within " + timeout.plus(slack).toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataAccessResourceFailureException("interrupted while waiting for Redis", e);
        }
        long[] counts = new long[2];
        Throwable waitError = counts(acks, deadline, counts);
        // A replica answers the primary's request for acknowledgements with the offset it has fsynced so far; when
        // the write and that request reach it together, it answers ahead of its fsync, and says more only with its
        // next periodic acknowledgement, a second later. A new WAITAOF asks again, so the wait goes in slices.
        while (sliced && error == null && waitError == null && (counts[0] < 1 || counts[1] < replicas)) {
            long left = (waitEnd - System.nanoTime()) / 1_000_000;
            if (left < 1) {
                break;
            }
            waitError = counts(sendWait(commands, Math.min(SLICE_MILLIS, left)), deadline, counts);
        }
        return new Answer(reply, error != null ? error : waitError, counts[0], counts[1]);
    }

    /** How long each {@code WAITAOF} of {@code fsync-and-replica} waits; then it is sent again. */
    private static final long SLICE_MILLIS = 20;

    private RedisFuture<?> sendWait(RedisAsyncCommands<String, String> commands, long millis) {
        return onDisk
                ? commands.dispatch(Command.WAITAOF, new ArrayOutput<>(StringCodec.UTF8),
                        new CommandArgs<>(StringCodec.UTF8).add(1).add(replicas).add(millis))
                : commands.waitForReplication(replicas, millis);
    }

    /**
     * Reads a wait's answer into {@code counts} (the primary's disk, 1 or 0, then the replicas); returns the server's
     * error reply, if any.
     */
    private Throwable counts(RedisFuture<?> acks, long deadline, long[] counts) {
        try {
            Object answer = acks.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (answer instanceof List<?> both) {
                counts[0] = (Long) both.get(0);
                counts[1] = (Long) both.get(1);
            } else {
                counts[1] = (Long) answer;
            }
            return null;
        } catch (ExecutionException e) {
            return answered(e.getCause());
        } catch (java.util.concurrent.CancellationException e) {
            throw new DataAccessResourceFailureException("the wait was cancelled (connection closed)", e);
        } catch (TimeoutException e) {
            throw new QueryTimeoutException("Redis did not answer the wait within " + timeout.plus(slack).toMillis()
                    + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataAccessResourceFailureException("interrupted while waiting for the writes to be durable", e);
        }
    }

    /**
     * The server's error reply, which leaves the connection in step; anything else (the client's own timeout, a
     * connection closed, a command cancelled) means an answer may still be on its way, and is thrown so that the
     * connection is not lent again.
     */
    private Throwable answered(Throwable cause) {
        if (cause instanceof RedisCommandExecutionException) {
            return cause;
        }
        if (cause instanceof RedisCommandTimeoutException) {
            throw new QueryTimeoutException("Redis did not answer in time", cause);
        }
        throw new DataAccessResourceFailureException("Redis call failed: " + cause, cause);
    }

    /**
     * A node that no longer owns the slot, or is no longer a primary, cannot be waited on: the call fails as if
     * Redis were out of reach (the caller answers 503), and a cluster client refreshes its view of the slots.
     */
    private DataAccessException translate(Throwable error) {
        String message = String.valueOf(error.getMessage());
        if (error instanceof RedisCommandExecutionException && (message.startsWith("MOVED")
                || message.startsWith("ASK") || message.startsWith("READONLY") || message.startsWith("CLUSTERDOWN")
                || message.startsWith("LOADING") || message.startsWith("TRYAGAIN") || message.startsWith("MASTERDOWN")
                || message.contains("WAIT cannot be used") || message.contains("WAITAOF cannot be used"))) {
            refreshTopology();
            return new DataAccessResourceFailureException("the node cannot take the call now: " + message, error);
        }
        DataAccessException converted = error instanceof Exception e ? EXCEPTIONS.convert(e) : null;
        return converted != null ? converted
                : new DataAccessResourceFailureException("Redis call failed: " + message, error);
    }

    /** On a cluster, reads the slots again: at most once a second, however many calls find them wrong. */
    private void refreshTopology() {
        long now = System.nanoTime();
        long last = lastRefresh.get();
        if (client.get() instanceof RedisClusterClient cluster && now - last > 1_000_000_000L
                && lastRefresh.compareAndSet(last, now)) {
            cluster.refreshPartitionsAsync();
        }
    }

    private StatefulRedisConnection<String, String> primaryFor(StatefulConnection<String, String> connection,
                                                               String key) {
        if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
            int slot = SlotHash.getSlot(key);
            RedisClusterNode primary = cluster.getPartitions().getMasterBySlot(slot);
            if (primary == null) {
                throw new DataAccessResourceFailureException("no primary is known for slot " + slot);
            }
            StatefulRedisConnection<String, String> node = cluster.getConnection(primary.getNodeId(),
                    ConnectionIntent.WRITE);
            if (!node.isOpen()) {
                // the primary is gone (killed, say): fail now rather than queue behind a reconnect
                refreshTopology();
                throw new DataAccessResourceFailureException("the primary of slot " + slot + " ("
                        + primary.getUri() + ") is not connected");
            }
            node.setTimeout(timeout.plus(slack));
            return node;
        }
        @SuppressWarnings("unchecked")
        StatefulRedisConnection<String, String> standalone = (StatefulRedisConnection<String, String>) connection;
        return standalone;
    }

    private StatefulConnection<String, String> borrow() {
        try {
            return pool.borrowObject();
        } catch (Exception e) {
            throw new DataAccessResourceFailureException("no connection to wait on: " + e.getMessage(), e);
        }
    }

    private void giveBack(StatefulConnection<String, String> connection, boolean reusable) {
        try {
            if (reusable && connection.isOpen()) {
                pool.returnObject(connection);
            } else {
                // a call that timed out or broke off may still have replies on the way: never lend it again
                pool.invalidateObject(connection);
            }
        } catch (Exception e) {
            connection.closeAsync();
        }
    }

    @Override
    public void close() {
        pool.close();
    }

    /** A call's writes were not on the primary's disk or on enough replicas within the timeout. */
    public static final class NotDurable extends QueryTimeoutException {
        NotDurable(boolean onDisk, long local, long acknowledged, int required, Duration timeout) {
            super((onDisk ? "the writes were " + (local > 0 ? "" : "not ") + "on the primary's disk and on the disks of "
                    : "the writes reached ") + acknowledged + " of " + required + " replica(s) within "
                    + timeout.toMillis() + " ms; the call is failed although its writes are on the primary");
        }
    }
}
