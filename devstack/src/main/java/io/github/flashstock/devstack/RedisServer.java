package io.github.flashstock.devstack;

import java.util.List;
import java.util.Map;

/** A standalone Redis: AOF on, fsync before every reply (see {@link RedisConf}), bound to 127.0.0.1. */
final class RedisServer extends Server {

    RedisServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "redis";
    }

    @Override
    List<Integer> ports() {
        return List.of(config.redisPort());
    }

    @Override
    void launch() {
        ensureDir(dir());
        var conf = dir().resolve("redis.conf");
        write(conf, RedisConf.standalone(config.redisPort(), dir()));
        Processes.launch(Processes.ignoringFileSizeLimit(List.of(config.redisTool("server"), conf.toString())), dir(),
                log("redis-server"), pidFile("redis-server"), Map.of());
    }

    @Override
    void awaitReady() {
        Processes.await("Redis PING on port " + config.redisPort(), config.startTimeout(), this::healthy);
    }

    @Override
    boolean healthy() {
        return Resp.ping(config.redisPort());
    }
}
