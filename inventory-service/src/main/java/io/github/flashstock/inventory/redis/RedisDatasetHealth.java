package io.github.flashstock.inventory.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Whether Redis holds its dataset: OUT_OF_SERVICE (HTTP 503 on {@code /actuator/health}) while a Redis node is
 * still loading it after a restart, when every Try would fail with {@code LOADING}. Redis answers {@code INFO}
 * while it loads, so the plain Redis check stays UP then. The details carry each node's {@code run_id}, which
 * changes when that Redis restarts. Redis out of reach is DOWN, as for the plain check.
 */
@Component("redisDataset")
class RedisDatasetHealth extends AbstractHealthIndicator {

    private final RedisConnectionFactory connections;

    public RedisDatasetHealth(RedisConnectionFactory connections) {
        super("Redis could not be asked whether it holds its dataset");
        this.connections = connections;
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        health.up();
        RedisPrimaries.forEach(connections, (name, server) -> {
            Properties persistence = server.info("persistence");
            Map<String, Object> details = describe(persistence, server.info("server"));
            if (name.equals(RedisPrimaries.STANDALONE)) {
                details.forEach(health::withDetail);
            } else {
                health.withDetail(name, details);
            }
            if (loading(persistence)) {
                health.outOfService();
            }
        });
    }

    /** Loading an RDB or AOF at start, or replacing the dataset from a primary. */
    static boolean loading(Properties persistence) {
        return "1".equals(persistence.getProperty("loading")) || "1".equals(persistence.getProperty("async_loading"));
    }

    private static Map<String, Object> describe(Properties persistence, Properties server) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("loading", loading(persistence));
        if (loading(persistence)) {
            details.put("loadedPercent", persistence.getProperty("loading_loaded_perc", "?"));
        }
        details.put("runId", server.getProperty("run_id", "?"));
        return details;
    }
}
