package io.github.flashstock.devstack;

import java.util.List;

/** Where clients find the running stack: what tests and services put into their configuration. */
public record Endpoints(DevStackConfig config) {

    public String redisHost() {
        return "127.0.0.1";
    }

    public int redisPort() {
        return config.redisPort();
    }

    /** {@code 127.0.0.1:port} of each Redis Cluster node. */
    public List<String> redisClusterNodes() {
        return config.clusterPorts().stream().map(p -> "127.0.0.1:" + p).toList();
    }

    /** {@code 127.0.0.1:port} of each Sentinel, for {@code spring.data.redis.sentinel.nodes}. */
    public List<String> redisSentinelNodes() {
        return config.sentinels().stream().map(p -> "127.0.0.1:" + p).toList();
    }

    /** For {@code spring.data.redis.sentinel.master}. */
    public String redisSentinelMaster() {
        return DevStackConfig.SENTINEL_MASTER_NAME;
    }

    /** {@code valkey} or {@code redis}: which server the devstack runs. */
    public String redisServer() {
        return config.redisServer();
    }

    public String jdbcUrl(String database) {
        return config.jdbcUrl(database);
    }

    /** Each database has a user of the same name. */
    public String dbUser(String database) {
        return database;
    }

    public String dbPassword() {
        return config.dbPassword();
    }

    /** For {@code seata.service.grouplist.default}. */
    public String seataAddress() {
        return "127.0.0.1:" + config.seataPort();
    }

    public String seataConsoleUrl() {
        return "http://127.0.0.1:" + config.seataConsolePort();
    }

    /**
     * Every TC's console, the first one's first ({@code devstack.seata.instances}); on the shared {@code db} store each
     * lists the sessions of all of them.
     */
    public List<String> seataConsoleUrls() {
        return java.util.stream.IntStream.range(0, config.seataInstances())
                .mapToObj(i -> "http://127.0.0.1:" + config.seataConsolePort(i)).toList();
    }

    public String namesrvAddress() {
        return "127.0.0.1:" + config.namesrvPort();
    }

    /** {@code file} (clients use {@link #seataAddress()}) or {@code nacos} (clients look the TC up in Nacos). */
    public String seataRegistry() {
        return config.seataRegistry();
    }

    /** For {@code NACOS_SERVER_ADDR} / {@code spring.cloud.nacos.server-addr}: {@code 127.0.0.1:port}. */
    public String nacosAddress() {
        return "127.0.0.1:" + config.nacosPort();
    }

    /** True when the Nacos server checks identities; then clients log in with the user and password below. */
    public boolean nacosAuth() {
        return config.nacosAuth();
    }

    public String nacosUsername() {
        return config.nacosUsername();
    }

    public String nacosPassword() {
        return config.nacosPassword();
    }
}
