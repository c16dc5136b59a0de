package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.ReplicaWait;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * What {@code lua/confirm.lua} and {@code lua/cancel.lua} share: one SKU of one reservation, driven by its fence
 * record, the same arguments and the same reply shape ({@link PhaseOutcome}). Under
 * {@code inventory.durability: replica} a phase, like a Try, is answered only once replicas have its writes (and
 * with them its stock event): a failover then loses no phase that answered.
 */
abstract class SecondPhaseScript {

    private final StringRedisTemplate redis;
    private final RedisScript<List<Long>> script;
    private final String name;
    private final ReplicaWait replicaWait;

    /** @param replicaWait when not null, every call goes through it */
    SecondPhaseScript(StringRedisTemplate redis, String name, ReplicaWait replicaWait) {
        this.redis = redis;
        this.script = Scripts.load(name);
        this.name = name;
        this.replicaWait = replicaWait;
    }

    /**
     * @param retention how long the finished fence record (or a tombstone) is kept
     * @param more      the script's further arguments, if it takes any
     */
    PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, String... more) {
        Object[] args = new Object[3 + more.length];
        args[0] = xid;
        args[1] = reservationId;
        args[2] = Long.toString(retention.toSeconds());
        System.arraycopy(more, 0, args, 3, more.length);
        List<String> keys = List.of(StockKeys.stock(skuId));
        List<Long> reply = replicaWait == null ? redis.execute(script, keys, args)
                : TryScript.longs(replicaWait.run(script, keys, java.util.Arrays.stream(args).map(String::valueOf)
                        .toList()));
        return PhaseOutcome.decode(name, reply);
    }
}
