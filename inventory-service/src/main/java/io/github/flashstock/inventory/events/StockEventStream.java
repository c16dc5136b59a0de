package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.PendingMessage;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.connection.stream.StreamInfo;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StreamOperations;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A SKU's event stream in Redis ({@code inv:{sku}:events}, appended by the phase scripts in the same call as the
 * stock they move), read through one consumer group that every instance's forwarder joins: each entry goes to
 * one forwarder, stays pending on it until acknowledged, and is deleted once acknowledged. Entries a forwarder
 * took and never acknowledged (it died) are claimed by another once they have been idle long enough.
 */
@org.springframework.stereotype.Component
class StockEventStream {

    /** The consumer group of every forwarder on every SKU's stream. */
    static final String GROUP = "forwarder";


    private final StringRedisTemplate redis;
    /** Waits behind a read until what it read is durable; empty when the server's reply is the guarantee. */
    private final java.util.Optional<io.github.flashstock.inventory.redis.DurableWait> durable;
    private final StreamOperations<String, Object, Object> streams;
    private final String group;
    private final String consumer;

    @org.springframework.beans.factory.annotation.Autowired
    StockEventStream(StringRedisTemplate redis, io.github.flashstock.inventory.redis.RedisDurability durability) {
        this(redis, GROUP, consumerName(), durability.durableWait());
    }

    StockEventStream(StringRedisTemplate redis, String group, String consumer) {
        this(redis, group, consumer, java.util.Optional.empty());
    }

    StockEventStream(StringRedisTemplate redis, String group, String consumer,
                     java.util.Optional<io.github.flashstock.inventory.redis.DurableWait> durable) {
        this.redis = redis;
        this.durable = durable;
        this.streams = redis.opsForStream();
        this.group = group;
        this.consumer = consumer;
    }

    /** This process's name in the group: new at every start, so a restarted process never inherits a dead one's. */
    private static String consumerName() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getName() + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    /** One entry: its id and fields, the SKU's id beside them. */
    record Entry(String skuId, RecordId id, Map<Object, Object> fields) {
    }

    /**
     * Up to {@code count} entries of the SKU for this forwarder: first the ones it took before and has not
     * acknowledged (a send failed), else new ones. Creates the group where the stream has none yet (a new SKU, or a
     * Redis that came back empty), reading from the stream's start.
     */
    List<Entry> next(String skuId, int count) {
        String key = StockKeys.events(skuId);
        List<MapRecord<String, Object, Object>> records;
        try {
            records = read(key, count, ReadOffset.from("0"));
            if (records.isEmpty()) {
                records = read(key, count, ReadOffset.lastConsumed());
            }
        } catch (RedisSystemException e) {
            if (!String.valueOf(e.getMostSpecificCause().getMessage()).contains("NOGROUP")) {
                throw e;
            }
            createGroup(key);
            records = read(key, count, ReadOffset.lastConsumed());
        }
        if (!records.isEmpty()) {
            // under replica or fsync-and-replica, an entry goes out only once it is as durable as the phase that
            // wrote it: an entry of a write that was never acknowledged, read from a primary that then fails over
            // and loses it, would tell RocketMQ of a reservation that does not exist (issue #59: a TRIED event on the
            // topic, and then no CANCELLED one, since the Cancel found nothing). Until then they stay pending here.
            durable.ifPresent(wait -> wait.writtenBefore(key + ":durable"));
        }
        List<Entry> entries = new ArrayList<>(records.size());
        for (MapRecord<String, Object, Object> r : records) {
            entries.add(new Entry(skuId, r.getId(), r.getValue()));
        }
        return entries;
    }

    private List<MapRecord<String, Object, Object>> read(String key, int count, ReadOffset offset) {
        List<MapRecord<String, Object, Object>> records = streams.read(Consumer.from(group, consumer),
                StreamReadOptions.empty().count(count), StreamOffset.create(key, offset));
        return records == null ? List.of() : records;
    }

    private void createGroup(String key) {
        try {
            // XGROUP CREATE ... MKSTREAM: a stream the scripts have not written to yet gets its group too
            redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) c -> {
                c.streamCommands().xGroupCreate(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), group,
                        ReadOffset.from("0-0"), true);
                return null;
            });
        } catch (RedisSystemException e) {
            if (!String.valueOf(e.getMostSpecificCause().getMessage()).contains("BUSYGROUP")) {
                throw e;
            }
        }
    }

    /** The SKU's stream holds entries (unsent, or sent and not yet deleted). */
    boolean hasEntries(String skuId) {
        Long size = streams.size(StockKeys.events(skuId));
        return size != null && size > 0;
    }

    /** The entries the SKU's stream holds and the time its oldest was written; {@link EventBacklog#NONE} when empty. */
    EventBacklog backlog(String skuId) {
        String key = StockKeys.events(skuId);
        Long size = streams.size(key);
        if (size == null || size == 0) {
            return EventBacklog.NONE;
        }
        List<MapRecord<String, Object, Object>> oldest = streams.range(key, Range.unbounded(),
                org.springframework.data.redis.connection.Limit.limit().count(1));
        long written = oldest == null || oldest.isEmpty() ? 0 : oldest.get(0).getId().getTimestamp();
        return new EventBacklog(size, written);
    }

    /** Acknowledges the entries and deletes them: RocketMQ has them now. */
    void done(String skuId, List<RecordId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        String key = StockKeys.events(skuId);
        RecordId[] array = ids.toArray(RecordId[]::new);
        streams.acknowledge(key, group, array);
        streams.delete(key, array);
    }

    /**
     * Takes over the entries other forwarders took and left unacknowledged for at least {@code idle} (they
     * stopped, or died), and removes the consumers that hold nothing and have been idle that long.
     *
     * @return entries taken over
     */
    int claimAbandoned(String skuId, Duration idle, int count) {
        String key = StockKeys.events(skuId);
        StreamInfo.XInfoConsumers consumers;
        try {
            consumers = streams.consumers(key, group);
        } catch (RedisSystemException e) {
            return 0; // no stream or no group yet: nothing was ever taken
        }
        int claimed = 0;
        for (StreamInfo.XInfoConsumer other : consumers) {
            if (other.consumerName().equals(consumer) || other.idleTimeMs() < idle.toMillis()) {
                continue;
            }
            if (other.pendingCount() > 0) {
                List<RecordId> ids = new ArrayList<>();
                for (PendingMessage p : streams.pending(key, Consumer.from(group, other.consumerName()),
                        Range.unbounded(), count)) {
                    ids.add(p.getId());
                }
                if (!ids.isEmpty()) {
                    claimed += streams.claim(key, group, consumer, idle, ids.toArray(RecordId[]::new)).size();
                }
            } else {
                streams.deleteConsumer(key, Consumer.from(group, other.consumerName()));
            }
        }
        return claimed;
    }
}
