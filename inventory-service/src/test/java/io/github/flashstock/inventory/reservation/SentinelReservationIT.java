package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.redis.RedisDurability;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seata.core.context.RootContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service on a primary and its replica behind three Sentinels ({@code spring.data.redis.sentinel.*}), under
 * {@code inventory.durability: fsync-and-replica}: the check at start passes through Sentinel, a failover
 * ({@code SENTINEL FAILOVER}) is caught by the run-id epoch and the SKU rebuilt, and only then sells again; and a primary
 * killed mid-sale loses no acknowledged Try.
 */
@DevStackTest({Component.REDIS_SENTINEL, Component.MARIADB, Component.SEATA, Component.ROCKETMQ})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelReservationIT extends InventoryITSupport {

    @DynamicPropertySource
    static void sentinel(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.sentinel.master", () -> SharedStack.endpoints().redisSentinelMaster());
        registry.add("spring.data.redis.sentinel.nodes",
                () -> String.join(",", SharedStack.endpoints().redisSentinelNodes()));
        registry.add("inventory.durability", () -> "fsync-and-replica");
        registry.add("inventory.replica-wait.timeout", () -> "1s");
    }

    @Autowired
    TestRestTemplate http;

    @Autowired
    RedisDurability durability;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    io.github.flashstock.inventory.rebuild.SkuRebuilds recovery;

    InventoryClient inventory;
    FailoverBuyers buyers;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
        buyers = new FailoverBuyers(inventory, "sentinel-it");
    }

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    @Test
    @Order(1)
    void theServiceRunsThroughSentinelWithEveryTryOnBothDisks() throws Exception {
        assertThat(durability.level()).isEqualTo(RedisDurability.Level.FSYNC_AND_REPLICA);
        assertThat(durability.durableWait()).hasValueSatisfying(w -> {
            assertThat(w.onDisk()).isTrue();
            assertThat(w.replicas()).isEqualTo(1);
        });
        assertThat(durability.shortfalls()).isEmpty();
        String sku = inventory.skuWith(10, null, 1);
        assertThat(buyers.order(sku, 2, true)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 2);
        int replica = replicaPort();
        // answered only once the replica had it: it is there
        String onReplica = FailoverBuyers.onNode(replica, c -> c.hget(StockKeys.stock(sku), "sold"));
        assertThat(onReplica).isEqualTo("2");
    }

    /**
     * A failover ordered through Sentinel: the replica becomes the primary, another Redis process, so the SKU is
     * refused until it is rebuilt from MySQL, and then sells what MySQL says is left.
     */
    @Test
    @Order(2)
    void aSentinelFailoverIsCaughtAndTheSkuRebuiltBeforeItSellsAgain() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        assertThat(buyers.order(sku, 3, true)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);
        await().atMost(Duration.ofMinutes(3)).until(recovery::idle);
        int original = SharedStack.redisSentinelPrimaryPort();
        int after = replicaPort();

        FailoverBuyers.onNode(sentinelPort(), c -> c.dispatch(io.lettuce.core.protocol.CommandType.SENTINEL,
                new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("FAILOVER")
                        .add(SharedStack.endpoints().redisSentinelMaster())));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> SharedStack.redisSentinelPrimaryPort() == after
                        && "master".equals(FailoverBuyers.serverInfo(after, "role", "replication")));
        // WAITAOF counts the old primary only once it follows the new one and its AOF is rewritten
        awaitLayoutHealthy();

        String promotedRunId = FailoverBuyers.serverInfo(after, "run_id");
        await().atMost(Duration.ofMinutes(3)).ignoreExceptions().alias("the SKU rebuilt on the new primary")
                .until(() -> {
                    ResponseEntity<JsonNode> answer = buyers.reserveAndRollBack(sku, 1);
                    Object epoch = redis.opsForHash().get(StockKeys.stock(sku), "epoch");
                    System.out.printf("after the failover: Try %s %s, epoch %s, new primary's run id %s%n",
                            answer.getStatusCode().value(), answer.getBody(), epoch, promotedRunId);
                    return promotedRunId.equals(String.valueOf(epoch));
                });
        assertThat(buyers.order(sku, 7, true)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 10);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(10);
        assertThat(stock.at("/redis/available").asLong()).isZero();
        assertThat(buyers.reserveAndRollBack(sku, 1).getStatusCode().value()).isEqualTo(409);
        assertThat(original).isNotEqualTo(after);
    }

    /**
     * The primary dies with SIGKILL in the middle of a sale by 8 buyers; the Sentinels promote the replica, which
     * has every Try that was answered (each was on its disk first). The dead node comes back as a replica, as its
     * supervisor would bring it back. Nothing is oversold, every committed order's unit is sold once in MySQL and in
     * Redis, nothing stays reserved, and every answer is a sale, a refusal or a 503 to retry.
     */
    @Test
    @Order(3)
    void thePrimaryIsKilledMidSaleAndNothingIsOversoldOrLost() throws Exception {
        int stocked = 120;
        String sku = inventory.skuWith(stocked, null, 1);
        int primary = SharedStack.redisSentinelPrimaryPort();
        int replica = replicaPort();
        AtomicInteger committed = new AtomicInteger();
        AtomicBoolean soldOut = new AtomicBoolean();
        Map<Integer, Integer> answers = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> running = new ArrayList<>();
        for (int b = 0; b < 8; b++) {
            running.add(pool.submit(() -> buyers.buyUntilSoldOut(sku, Duration.ofMinutes(3), answers, committed,
                    soldOut)));
        }
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> committed.get() >= 30);
            SharedStack.kill(Component.REDIS_SENTINEL, "node-" + primary);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> SharedStack.redisSentinelPrimaryPort() == replica);
            // under fsync-and-replica the new primary sells nothing until it has a replica again
            SharedStack.restart(Component.REDIS_SENTINEL);
            for (Future<?> f : running) {
                f.get(4, TimeUnit.MINUTES);
            }
        } finally {
            soldOut.set(true);
            pool.shutdownNow();
            SharedStack.restart(Component.REDIS_SENTINEL);
        }
        System.out.printf("Sentinel primary killed mid-sale: %d orders committed of %d units, answers %s%n",
                committed.get(), stocked, answers);
        assertThat(soldOut.get()).as("the sale went on after the failover until sold out: %s", answers).isTrue();
        assertThat(answers.keySet()).as("every answer a sale, a refusal or a 503 to retry, never a 500")
                .isSubsetOf(201, 409, 503);
        String promotedRunId = FailoverBuyers.serverInfo(replica, "run_id");
        await().atMost(Duration.ofMinutes(3)).until(() -> promotedRunId.equals(
                String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch"))));
        await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong()
                == committed.get() && inventory.stock(sku).at("/redis/reserved").asLong() == 0);
        JsonNode stock = inventory.stock(sku);
        assertThat(committed.get()).as("units sold to committed orders: %s", answers).isEqualTo(stocked);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(committed.get());
        assertThat(stock.at("/redis/available").asLong()).isZero();
        assertThat(stock.at("/mysql/reserved").asLong()).isZero();
    }

    private static int sentinelPort() {
        String node = SharedStack.endpoints().redisSentinelNodes().get(0);
        return Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
    }

    /** The data node that is not the primary now. */
    private static int replicaPort() {
        int primary = SharedStack.redisSentinelPrimaryPort();
        int base = Integer.parseInt(SharedStack.endpoints().redisSentinelNodes().get(0).replaceAll(".*:", "")) - 2;
        return primary == base ? base + 1 : base;
    }

    private static void awaitLayoutHealthy() {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> SharedStack.healthy(Component.REDIS_SENTINEL));
    }
}
