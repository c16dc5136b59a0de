package io.github.flashstock.inventory.console;

import io.github.flashstock.inventory.redis.RedisMemory;
import java.util.List;
import java.util.Map;

/**
 * One instance's readings at one moment, as {@code GET /admin/console/instance} answers them. The counts are totals
 * since the instance started (a page turns two readings into rates, as Prometheus's {@code rate()} does); the
 * latencies are Micrometer's percentiles over its last two minutes.
 *
 * @param instance      the instance's address, {@code host:port}
 * @param atMillis      when it was read (epoch milliseconds)
 * @param startedMillis when the instance started (a count that goes down means a restart)
 * @param tries         Tries by outcome ({@code inventory.reservations{outcome}}), and {@code refused_early}: those the
 *                      sold-out shortcut refused without making them branches ({@code inventory.reservations.refused-early})
 * @param phases        second phases done, by phase ({@code inventory.phases{phase,result=done}})
 * @param latencyMillis p50 and p99 of each phase ({@code inventory.phase{phase}}), milliseconds
 * @param health        what an operator checks to trust the numbers
 */
public record InstanceReading(String instance, long atMillis, long startedMillis, Map<String, Double> tries,
                              Map<String, Double> phases, Map<String, Map<String, Double>> latencyMillis,
                              Health health) {

    /**
     * @param redisBreaker       the Redis circuit breaker: closed (Tries go to Redis), open, half_open
     * @param redisMemory        each Redis node's memory at its last reading ({@code RedisMemory}, every few
     *                           seconds): used, {@code maxmemory}, whether above the warning share
     * @param durability         {@code inventory.durability}
     * @param durabilityShortfalls what keeps it from holding now, read from the servers; empty when it holds
     * @param eventBacklog       stock events in Redis not yet with RocketMQ (stream entries); null when Redis could
     *                           not be asked
     * @param eventLagMillis     how long the oldest of them has waited; null likewise
     * @param coordinators       the Seata TCs the client's registry lists, each with whether a connection opens
     * @param checkedMillis      when the durability, the backlog and the coordinators were read (epoch milliseconds;
     *                           they are read in the background, at most {@code InstanceReadings.SLOW_EVERY_MILLIS}
     *                           apart while someone asks)
     */
    public record Health(String redisBreaker, List<RedisMemory.NodeMemory> redisMemory, String durability,
                         List<String> durabilityShortfalls, Long eventBacklog,
                         Long eventLagMillis, List<Coordinator> coordinators, long checkedMillis) {
    }

    /** A Seata TC the registry lists, and whether a TCP connection to it opened within the probe's timeout. */
    public record Coordinator(String address, boolean reachable) {
    }
}
