package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.redis.DurableWait;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * What {@code lua/confirm.lua} and {@code lua/cancel.lua} share: one SKU of one or more reservations in a call, each
 * driven by its fence record, the same argument layout (the retention, then a fixed number of values per
 * reservation) and the same reply shape ({@link PhaseOutcome}, two integers per reservation). Under
 * {@code inventory.durability: replica} a phase, like a Try, is answered only once replicas have its writes (and
 * with them its stock event): a failover then loses no phase that answered.
 */
abstract class SecondPhaseScript {

    /**
     * One reservation's phase on one SKU.
     *
     * @param more the script's further values for it (fewer than it takes: the rest are empty)
     */
    record Call(String skuId, String xid, String reservationId, List<String> more) {
    }

    /** What one call answered: the outcome, or why this reservation's phase failed in the script. */
    record Answer(PhaseOutcome outcome, RuntimeException failure) {

        /** @throws RuntimeException the failure, when the script failed this reservation's phase */
        PhaseOutcome get() {
            if (failure != null) {
                throw failure;
            }
            return outcome;
        }
    }

    private final StringRedisTemplate redis;
    private final RedisScript<List<Long>> script;
    private final String name;
    private final int valuesPerCall;
    private final DurableWait durableWait;

    /**
     * @param valuesPerCall the script's values per reservation, xid and reservation id included
     * @param durableWait   when not null, every call goes through it
     */
    SecondPhaseScript(StringRedisTemplate redis, String name, int valuesPerCall, DurableWait durableWait) {
        this.redis = redis;
        this.script = Scripts.load(name);
        this.name = name;
        this.valuesPerCall = valuesPerCall;
        this.durableWait = durableWait;
    }

    /**
     * @param retention how long the finished fence record (or a tombstone) is kept
     * @param more      the script's further values, if it takes any
     */
    PhaseOutcome run(String skuId, String xid, String reservationId, Duration retention, String... more) {
        return run(List.of(new Call(skuId, xid, reservationId, List.of(more))), retention).get(0).get();
    }

    /**
     * The phases of several reservations in one script call, decided one after the other, each on its own.
     *
     * @return one answer per call, in order
     */
    List<Answer> run(List<Call> calls, Duration retention) {
        List<String> keys = new ArrayList<>(calls.size());
        List<String> args = new ArrayList<>(1 + calls.size() * valuesPerCall);
        args.add(Long.toString(retention.toSeconds()));
        for (Call call : calls) {
            if (call.more().size() > valuesPerCall - 2) {
                throw new IllegalArgumentException(name + " takes " + (valuesPerCall - 2) + " further values, not "
                        + call.more().size());
            }
            keys.add(StockKeys.stock(call.skuId()));
            args.add(call.xid());
            args.add(call.reservationId());
            args.addAll(call.more());
            for (int i = call.more().size(); i < valuesPerCall - 2; i++) {
                args.add("");
            }
        }
        List<Long> reply = durableWait == null ? redis.execute(script, keys, args.toArray())
                : TryScript.longs(durableWait.run(script, keys, args));
        if (reply == null || reply.size() != 2 * calls.size()) {
            throw Scripts.unknownCode(name + " (" + calls.size() + " reservations)", reply);
        }
        List<Answer> answers = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            try {
                answers.add(new Answer(PhaseOutcome.decode(name, reply.subList(2 * i, 2 * i + 2)), null));
            } catch (IllegalStateException e) {
                answers.add(new Answer(null, e));
            }
        }
        return answers;
    }
}
