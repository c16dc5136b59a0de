package io.github.flashstock.inventory.redis;

import io.lettuce.core.cluster.SlotHash;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The Redis servers the service writes to (the one server, the primary Sentinel names, or every primary of a cluster),
 * asked one by one.
 */
final class RedisPrimaries {

    /** The name a standalone server is given. */
    static final String STANDALONE = "Redis";

    private RedisPrimaries() {
    }

    /** One server: its name and a way to read its {@code INFO} sections and its {@code CONFIG}. */
    interface Server {
        Properties info(String section);

        Properties config(String pattern);

        /** Whether this server holds {@code key}'s slot (a standalone server holds every key). */
        boolean owns(String key);
    }

    /** Calls {@code each} with every primary's name ({@link #STANDALONE} for a standalone server) and the server. */
    static void forEach(RedisConnectionFactory connections, BiConsumer<String, Server> each) {
        try (RedisConnection connection = connections.getConnection()) {
            if (connection instanceof RedisClusterConnection cluster) {
                for (RedisClusterNode node : cluster.clusterGetNodes()) {
                    if (node.isMaster()) {
                        each.accept(node.asString(), new Server() {
                            @Override
                            public Properties info(String section) {
                                return cluster.serverCommands().info(node, section);
                            }

                            @Override
                            public Properties config(String pattern) {
                                return cluster.serverCommands().getConfig(node, pattern);
                            }

                            @Override
                            public boolean owns(String key) {
                                return node.servesSlot(SlotHash.getSlot(key));
                            }
                        });
                    }
                }
                return;
            }
            each.accept(STANDALONE, new Server() {
                @Override
                public Properties info(String section) {
                    return connection.serverCommands().info(section);
                }

                @Override
                public Properties config(String pattern) {
                    return connection.serverCommands().getConfig(pattern);
                }

                @Override
                public boolean owns(String key) {
                    return true;
                }
            });
        }
    }
}
