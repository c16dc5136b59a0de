package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.junit.DevStackTest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@DevStackTest(Component.REDIS)
class RedisIT {

    /** Lock q units when enough are available; -1 when not. The shape of the stock scripts to come. */
    private static final String LOCK = """
            local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0')
            local locked = tonumber(redis.call('HGET', KEYS[1], 'locked') or '0')
            local q = tonumber(ARGV[1])
            if total - locked < q then return -1 end
            return redis.call('HINCRBY', KEYS[1], 'locked', q)
            """;

    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void connect(Endpoints endpoints) {
        client = RedisClient.create("redis://" + endpoints.redisHost() + ":" + endpoints.redisPort());
        connection = client.connect();
        redis = connection.sync();
    }

    @AfterEach
    void close() {
        connection.close();
        client.shutdown();
    }

    @Test
    void runsALuaScriptThatLocksOnlyAvailableUnits() {
        // Given a hash with 3 units
        String key = "devstack-it:{" + UUID.randomUUID() + "}";
        redis.hset(key, "total", "3");

        // When a script locks 2, then 2 again, by SHA as the services will
        String sha = redis.scriptLoad(LOCK);
        Long first = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key}, "2");
        Long second = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key}, "2");

        // Then the second is refused and nothing beyond the stock is locked
        assertThat(first).isEqualTo(2L);
        assertThat(second).isEqualTo(-1L);
        assertThat(redis.hget(key, "locked")).isEqualTo("2");
        redis.del(key);
    }

    /** Every write in the append-only file, synced, before Redis answers it: a killed Redis loses nothing it said yes to. */
    @Test
    void persistsEveryWriteBeforeAnsweringIt() {
        assertThat(redis.configGet("appendonly")).containsEntry("appendonly", "yes");
        assertThat(redis.configGet("appendfsync")).containsEntry("appendfsync", "always");
        assertThat(redis.configGet("bind")).containsEntry("bind", "127.0.0.1");
    }
}
