package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.junit.DevStackTest;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@DevStackTest(Component.REDIS_CLUSTER)
class RedisClusterIT {

    private static final String MOVE = """
            local from = tonumber(redis.call('GET', KEYS[1]) or '0')
            local q = tonumber(ARGV[1])
            if from < q then return -1 end
            redis.call('DECRBY', KEYS[1], q)
            return redis.call('INCRBY', KEYS[2], q)
            """;

    private RedisClusterClient client;
    private StatefulRedisClusterConnection<String, String> connection;
    private RedisAdvancedClusterCommands<String, String> redis;

    @BeforeEach
    void connect(Endpoints endpoints) {
        List<RedisURI> seeds = endpoints.redisClusterNodes().stream().map(n -> RedisURI.create("redis://" + n)).toList();
        client = RedisClusterClient.create(seeds);
        connection = client.connect();
        redis = connection.sync();
    }

    @AfterEach
    void close() {
        connection.close();
        client.shutdown();
    }

    @Test
    void hasThreeMastersEachWithAReplica() {
        var nodes = connection.getPartitions().getPartitions();
        long masters = nodes.stream().filter(n -> n.is(RedisClusterNode.NodeFlag.UPSTREAM)).count();
        long replicas = nodes.stream().filter(n -> n.is(RedisClusterNode.NodeFlag.REPLICA)).count();
        assertThat(masters).isEqualTo(3);
        assertThat(replicas).isEqualTo(3);
    }

    @Test
    void aReadOnANodeIsAnsweredByThatCopyEvenOnAReplica() throws InterruptedException {
        String key = "probe:{" + UUID.randomUUID() + "}";
        redis.hset(key, "state", "TRIED");
        int[] masterAndReplica = io.github.flashstock.devstack.junit.SharedStack.redisClusterMasterAndReplicaOf(key);
        DevStack stack = DevStack.fromEnvironment();

        assertThat(stack.readOnRedisNode(masterAndReplica[0], "HGETALL", key)).isEqualTo(List.of("state", "TRIED"));
        Object onReplica = null;
        for (int i = 0; i < 100 && !List.of("state", "TRIED").equals(onReplica); i++) {
            if (i > 0) {
                Thread.sleep(100);
            }
            onReplica = stack.readOnRedisNode(masterAndReplica[1], "HGETALL", key);
        }
        assertThat(onReplica).as("the replica's own copy").isEqualTo(List.of("state", "TRIED"));
        assertThat(stack.readOnRedisNode(masterAndReplica[1], "NO-SUCH-COMMAND")).asString().startsWith("-ERR");
        assertThat(stack.readOnRedisNode(1, "PING")).asString().startsWith("unreachable: ");
    }

    /**
     * {@code up} meets the cluster while a node is frozen (a chaos schedule's SIGSTOP, a restarted node still
     * rejoining): every process runs, the health check fails. It waits for the node rather than starting the cluster
     * afresh, which would empty it in the middle of a sale.
     */
    @Test
    void upWhileANodeIsFrozenWaitsForItAndKeepsTheData() throws Exception {
        String key = "probe:{" + UUID.randomUUID() + "}";
        redis.set(key, "kept");
        int[] masterAndReplica = io.github.flashstock.devstack.junit.SharedStack.redisClusterMasterAndReplicaOf(key);
        DevStack stack = DevStack.fromEnvironment();
        // the replica, so that the cluster does not fail the slot over meanwhile
        stack.pause(Component.REDIS_CLUSTER, "node-" + masterAndReplica[1]);
        // thawed well after the health check has given up on it (each probe waits 2 s for the frozen node)
        Thread thaw = new Thread(() -> {
            try {
                Thread.sleep(8_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stack.resume(Component.REDIS_CLUSTER, "node-" + masterAndReplica[1]);
        });
        thaw.start();
        DevStack.UpReport report;
        try {
            assertThat(stack.isUp(java.util.EnumSet.of(Component.REDIS_CLUSTER))).as("frozen: not healthy").isFalse();
            report = stack.up(java.util.EnumSet.of(Component.REDIS_CLUSTER));
        } finally {
            thaw.join();
        }

        assertThat(report.startedAny()).as("nothing started: %s", report).isFalse();
        assertThat(redis.get(key)).isEqualTo("kept");
    }

    @Test
    void runsAScriptOnTwoKeysThatShareAHashTag() {
        // Given two keys of one SKU: the hash tag puts them in one slot
        String sku = "sku-" + UUID.randomUUID();
        String stock = "inv:{" + sku + "}:seg:0";
        String other = "inv:{" + sku + "}:seg:1";
        assertThat(SlotHash.getSlot(stock)).isEqualTo(SlotHash.getSlot(other));
        redis.set(stock, "5");

        // When one script moves 3 units between them
        Long moved = redis.eval(MOVE, ScriptOutputType.INTEGER, new String[] {stock, other}, "3");

        // Then both changed atomically
        assertThat(moved).isEqualTo(3L);
        assertThat(redis.get(stock)).isEqualTo("2");
        assertThat(redis.get(other)).isEqualTo("3");
    }

    @Test
    void refusesAScriptOnKeysInDifferentSlots() {
        String a = "inv:{sku-a-" + UUID.randomUUID() + "}";
        String b = "inv:{sku-b-" + UUID.randomUUID() + "}";
        // (astronomically unlikely to share a slot; skip the assertion's premise check otherwise)
        org.junit.jupiter.api.Assumptions.assumeTrue(SlotHash.getSlot(a) != SlotHash.getSlot(b));

        assertThatThrownBy(() -> redis.eval(MOVE, ScriptOutputType.INTEGER, new String[] {a, b}, "1"))
                .isInstanceOf(RedisException.class)
                .hasMessageContaining("CROSSSLOT");
    }
}
