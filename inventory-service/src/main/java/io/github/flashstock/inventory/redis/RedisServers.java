package io.github.flashstock.inventory.redis;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Which Redis processes the service writes to now: the run id of each primary (the one server, the primary Sentinel
 * names, or every primary of a cluster). A run id is new at every start of a Redis process and on a replica promoted
 * in a failover, so a change says that a server may have lost acknowledged writes.
 */
@Component
public class RedisServers {

    private final RedisConnectionFactory connections;

    public RedisServers(RedisConnectionFactory connections) {
        this.connections = connections;
    }

    /** The primaries' run ids; empty while Redis (or one of its primaries) cannot be asked. */
    public Optional<Set<String>> runIds() {
        try {
            Set<String> ids = new TreeSet<>();
            RedisPrimaries.forEach(connections, (name, server) -> {
                String id = server.info("server").getProperty("run_id");
                if (id == null || id.isBlank()) {
                    throw new IllegalStateException(name + " names no run id");
                }
                ids.add(id);
            });
            return ids.isEmpty() ? Optional.empty() : Optional.of(ids);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
