package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.stock.StockKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** The service on the devstack's Redis Cluster: a Try spanning slots runs one script per slot group. */
@DevStackTest({Component.REDIS_CLUSTER, Component.MARIADB, Component.SEATA, Component.ROCKETMQ})
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ClusterReservationIT extends InventoryITSupport {

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", SharedStack.endpoints().redisClusterNodes()));
        // the devstack's cluster nodes keep no AOF; each master has one replica, which every Try must reach before
        // it is answered
        // (-Dit.cluster.durability=none shows what the lagging-replica test catches without the wait)
        registry.add("inventory.durability", () -> System.getProperty("it.cluster.durability", "replica"));
        registry.add("inventory.replica-wait.timeout", () -> "1s");
    }

    @Autowired
    TestRestTemplate http;

    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    InventoryClient inventory;

    FailoverBuyers buyers;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
        buyers = new FailoverBuyers(inventory, "cluster-it");
    }

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    /** Two new SKUs whose keys hash to different slots. */
    private List<String> skusInTwoSlots(long first, long second) {
        String a = inventory.skuWith(first, null, 1);
        while (true) {
            String b = inventory.skuWith(second, null, 1);
            if (ClusterSlotHashUtil.calculateSlot(StockKeys.stock(a)) != ClusterSlotHashUtil.calculateSlot(StockKeys.stock(b))) {
                return List.of(a, b);
            }
        }
    }

    @Test
    void aTrySpanningSlotsWhoseSecondGroupIsRefusedGivesTheFirstBackAndACommitTakesNothing() throws Exception {
        List<String> skus = skusInTwoSlots(10, 1);
        String plenty = skus.get(0);
        String scarce = skus.get(1);
        GlobalTransaction tx = GlobalTransactions.begin("cluster-it");

        ResponseEntity<JsonNode> refused = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(plenty, 2), new InventoryClient.Item(scarce, 2)));
        // the first slot group was reserved before the second refused; recording the refusal gave its units back
        assertThat(refused.getStatusCode().value()).as("%s", refused.getBody()).isEqualTo(409);
        assertThat(refused.getBody().path("skuId").asText()).isEqualTo(scarce);
        assertThat(inventory.stock(plenty).at("/redis/reserved").asLong()).isZero();
        assertThat(inventory.stock(plenty).at("/redis/available").asLong()).isEqualTo(10);

        // a caller that commits all the same gets nothing of either slot
        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM stock_ledger"
                + " WHERE xid = ? AND state = 'REFUSED' AND refused_confirm_at IS NOT NULL", Long.class,
                tx.getXid()) >= 1);
        for (String sku : skus) {
            JsonNode stock = inventory.stock(sku);
            assertThat(stock.at("/redis/sold").asLong()).as(sku).isZero();
            assertThat(stock.at("/redis/reserved").asLong()).as(sku).isZero();
            assertThat(stock.at("/mysql/sold").asLong()).as(sku).isZero();
        }
        assertThat(inventory.stock(plenty).at("/redis/available").asLong()).isEqualTo(10);
    }

    @Test
    void aTrySpanningSlotsCommitsEveryGroup() throws Exception {
        List<String> skus = skusInTwoSlots(10, 10);
        GlobalTransaction tx = GlobalTransactions.begin("cluster-it");

        ResponseEntity<JsonNode> reserved = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(skus.get(0), 1), new InventoryClient.Item(skus.get(1), 3)));
        assertThat(reserved.getStatusCode().value()).as("%s", reserved.getBody()).isEqualTo(201);
        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(skus.get(1)).at("/mysql/sold").asLong() == 3);
        assertThat(inventory.stock(skus.get(0)).at("/mysql/sold").asLong()).isEqualTo(1);
        assertThat(inventory.stock(skus.get(0)).at("/redis/available").asLong()).isEqualTo(9);
        assertThat(inventory.stock(skus.get(1)).at("/redis/available").asLong()).isEqualTo(7);
    }

    /**
     * The master of a SKU's slot hands over to its replica ({@code CLUSTER FAILOVER}): the promoted node is another
     * Redis process, so the SKU is refused there until it is rebuilt from MySQL (by the first Try that meets it, or by
     * the service noticing the new run id first), and then sells what MySQL says is left. (A coordinated failover
     * loses nothing; one after a crash may lose the last writes, which the same rebuild covers: {@code SkuRebuildsIT},
     * the {@code redis-aof-tail} drill.) The topology is put back after.
     */
    @Test
    void aFailoverOfTheSkusMasterIsCaughtAndTheSkuRebuiltBeforeItSellsAgain() throws Exception {
        String sku = inventory.skuWith(10, null, 1);
        assertThat(buyers.order(sku, 3, true)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);
        int[] masterAndReplica = masterAndReplicaOf(sku);
        // no rebuild round under way (one started by the service's warm-up, or by an earlier crash, scans every
        // SKU and would rebuild this one before the Try below could meet it stale)
        await().atMost(Duration.ofMinutes(3)).until(recovery::idle);

        promote(masterAndReplica[1]);
        try {
            String promotedRunId = FailoverBuyers.serverInfo(masterAndReplica[1], "run_id");
            ResponseEntity<JsonNode> first = buyers.reserveAndRollBack(sku, 1);
            if (first.getStatusCode().value() == 201) {
                // the service noticed the failover by itself (RedisRestartWatch) and rebuilt the SKU before this Try
                assertThat(String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch")))
                        .as("a Try served only by the rebuilt SKU").isEqualTo(promotedRunId);
            } else {
                assertThat(first.getStatusCode().value()).as("%s", first.getBody()).isEqualTo(503);
                assertThat(first.getBody().path("type").asText())
                        .isEqualTo("urn:flashstock:problem:sku-rebuilding");
            }

            await().atMost(Duration.ofMinutes(3)).until(() -> promotedRunId.equals(
                    String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch"))));
            assertThat(buyers.order(sku, 7, true)).isEqualTo(201);
            await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 10);
            JsonNode stock = inventory.stock(sku);
            assertThat(stock.at("/redis/sold").asLong()).isEqualTo(10);
            assertThat(stock.at("/redis/available").asLong()).isZero();
            assertThat(buyers.reserveAndRollBack(sku, 1).getStatusCode().value()).isEqualTo(409);
        } finally {
            promote(masterAndReplica[0]);
        }
    }

    /**
     * The master of a hot SKU's slot dies with SIGKILL in the middle of a sale by 8 buyers, and the cluster promotes
     * its replica (replication is asynchronous, so the replica may lack the master's last writes). The promoted
     * node is another Redis process: the SKU is refused there until it is rebuilt from MySQL. Afterwards nothing is
     * oversold, every committed order's unit is sold once in MySQL and in Redis, and nothing stays reserved. The
     * dead node comes back as a replica, and the topology is put back after.
     */
    @Test
    // last: the crash leaves a node with a new run id behind, and the rounds that rebuild its SKUs would race the
    // other failover test's first Try
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void theSkusMasterCrashesMidSaleAndNothingIsOversoldOrLost() throws Exception {
        int stocked = 150;
        String sku = inventory.skuWith(stocked, null, 1);
        int[] masterAndReplica = masterAndReplicaOf(sku);
        EightBuyers sale;
        try {
            sale = eightBuyersUntilSoldOut(sku, () -> {
                SharedStack.kill(Component.REDIS_CLUSTER, "node-" + masterAndReplica[0]);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> "master"
                        .equals(FailoverBuyers.serverInfo(masterAndReplica[1], "role", "replication")));
                // the promoted master has no replica, and under durability replica its slots sell nothing, until the
                // dead node is back (as its supervisor would bring it back) and attached as its replica
                SharedStack.restart(Component.REDIS_CLUSTER);
            });
        } finally {
            SharedStack.restart(Component.REDIS_CLUSTER);
        }
        java.util.concurrent.atomic.AtomicInteger committed = sale.committed();
        Map<Integer, Integer> answers = sale.answers();
        System.out.printf("master crash mid-sale: %d orders committed of %d units, answers %s%n", committed.get(),
                stocked, answers);
        try {
            assertThat(sale.soldOut()).as("the sale went on after the failover until sold out: %s", answers).isTrue();
            assertThat(answers.keySet()).as("every answer a sale, a refusal or a 503 to retry, never a 500")
                    .isSubsetOf(201, 409, 503);
            String promotedRunId = FailoverBuyers.serverInfo(masterAndReplica[1], "run_id");
            await().atMost(Duration.ofMinutes(3)).until(() -> promotedRunId.equals(
                    String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch"))));
            await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong()
                    == committed.get() && inventory.stock(sku).at("/redis/reserved").asLong() == 0);
            JsonNode stock = inventory.stock(sku);
            assertThat(committed.get()).as("units sold to committed orders: %s", answers).isLessThanOrEqualTo(stocked);
            assertThat(stock.at("/redis/sold").asLong()).isEqualTo(committed.get());
            assertThat(stock.at("/redis/available").asLong() + stock.at("/redis/reserved").asLong()
                    + stock.at("/redis/sold").asLong()).isEqualTo(stocked);
            assertThat(stock.at("/mysql/reserved").asLong()).isZero();
        } finally {
            promote(masterAndReplica[0]);
            // the service's client reconnects to the restarted node with a growing delay (Lettuce's backoff, up to
            // 30 s); the next tests need every master
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(this::theServiceReachesEveryMaster);
        }
    }

    /**
     * The SKU's master is frozen (SIGSTOP) mid-sale for 9 s, past the cluster's node timeout (5 s): its replica takes
     * over while it is frozen, and when it thaws it may take itself for the master for a moment and run what the
     * service sent it meanwhile (Tries, Confirms, Cancels in its socket) before the promotion reaches it and it
     * becomes a replica, dropping whatever it wrote in that moment. Under {@code durability: replica} none of that was
     * acknowledged (its replica was gone), so the sale sells out with every committed unit sold once in MySQL and in
     * Redis and nothing left reserved. {@code -Dit.cluster.freeze-ms=5000} freezes it for the node timeout alone,
     * which the chaos schedules do: then it mostly comes back a master.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 2)
    void theSkusMasterFrozenForTheNodeTimeoutMidSaleLosesNothing() throws Exception {
        int stocked = 150;
        String sku = inventory.skuWith(stocked, null, 1);
        int[] masterAndReplica = masterAndReplicaOf(sku);
        EightBuyers sale = eightBuyersUntilSoldOut(sku, () -> {
            SharedStack.pause(Component.REDIS_CLUSTER, "node-" + masterAndReplica[0]);
            try {
                Thread.sleep(Long.getLong("it.cluster.freeze-ms", 9_000));
            } finally {
                SharedStack.resume(Component.REDIS_CLUSTER, "node-" + masterAndReplica[0]);
            }
        });
        java.util.concurrent.atomic.AtomicInteger committed = sale.committed();
        Map<Integer, Integer> answers = sale.answers();
        String roleAfter = FailoverBuyers.serverInfo(masterAndReplica[0], "role", "replication");
        System.out.printf("master frozen mid-sale: %d orders committed of %d units, answers %s; the frozen node is"
                + " a %s now%n", committed.get(), stocked, answers, roleAfter);
        try {
            assertThat(sale.soldOut()).as("the sale went on until sold out: %s", answers).isTrue();
            assertThat(answers.keySet()).as("every answer a sale, a refusal or a 503 to retry, never a 500")
                    .isSubsetOf(201, 409, 503);
            await().atMost(Duration.ofMinutes(3)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong()
                    == committed.get() && inventory.stock(sku).at("/redis/reserved").asLong() == 0);
            JsonNode stock = inventory.stock(sku);
            assertThat(committed.get()).as("units sold to committed orders: %s", answers).isLessThanOrEqualTo(stocked);
            assertThat(stock.at("/redis/sold").asLong()).as("Redis's sold: %s", stock).isEqualTo(committed.get());
            assertThat(stock.at("/redis/available").asLong() + stock.at("/redis/reserved").asLong()
                    + stock.at("/redis/sold").asLong()).isEqualTo(stocked);
            assertThat(stock.at("/mysql/reserved").asLong()).isZero();
        } finally {
            if (!"master".equals(roleAfter)) {
                promote(masterAndReplica[0]);
            }
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(this::theServiceReachesEveryMaster);
        }
    }

    /**
     * The loss {@code inventory.durability: replica} exists for: a master dies while its replica lags behind, and
     * the replica, promoted, lacks the master's last writes. The lag is made certain by freezing the replica
     * (SIGSTOP) and cutting its replication link. A Try sent then reaches the master, but its writes cannot reach the replica: it must not be
     * answered 201. (Under {@code none} it is, its global transaction commits after the failover, and its Confirm
     * finds no fence record: the outcome RECOVERED, or OVERSOLD when the units were sold again.) The master is
     * killed, the replica thawed and promoted, the dead node brought back as its replica, and the SKU then sells
     * out: every sale counted once, and no Confirm without a record.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 1)
    void aMasterDiesWhileItsReplicaLagsAndNoAcknowledgedTryIsLost() throws Exception {
        int stocked = 30;
        String sku = inventory.skuWith(stocked, null, 1);
        int[] masterAndReplica = masterAndReplicaOf(sku);
        double withoutRecordBefore = confirmsWithoutRecord();
        int committed = 0;
        for (int i = 0; i < 3; i++) {
            assertThat(buyers.order(sku, 1, true)).isEqualTo(201);
            committed++;
        }
        int lagging;
        GlobalTransaction tx;
        SharedStack.pause(Component.REDIS_CLUSTER, "node-" + masterAndReplica[1]);
        try {
            // and the master drops its link to the frozen replica, so that what it writes now cannot be waiting in
            // the replica's socket buffer either (a frozen process's kernel still takes in what is sent to it)
            long dropped = FailoverBuyers.onNode(masterAndReplica[0], c -> c.clientKill(io.lettuce.core.KillArgs.Builder.typeSlave()));
            assertThat(dropped).isEqualTo(1);
            tx = GlobalTransactions.begin("cluster-it", Duration.ofMinutes(2));
            lagging = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "carol",
                    List.of(new InventoryClient.Item(sku, 2))).getStatusCode().value();
            RootContext.unbind();
            SharedStack.kill(Component.REDIS_CLUSTER, "node-" + masterAndReplica[0]);
        } finally {
            SharedStack.resume(Component.REDIS_CLUSTER, "node-" + masterAndReplica[1]);
        }
        Map<Integer, Integer> answers = new java.util.TreeMap<>();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> "master".equals(
                    FailoverBuyers.serverInfo(masterAndReplica[1], "role", "replication")));
            // the promoted master has no replica, and under durability replica its slots sell nothing, until the
            // dead node is back (as its supervisor would bring it back) and attached as its replica
            SharedStack.restart(Component.REDIS_CLUSTER);
            if (lagging == 201) {
                tx.commit();
                committed += 2;
            } else {
                tx.rollback();
            }
            java.util.concurrent.atomic.AtomicInteger afterFailover = new java.util.concurrent.atomic.AtomicInteger();
            buyers.buyUntilSoldOut(sku, Duration.ofMinutes(3), answers, afterFailover,
                    new java.util.concurrent.atomic.AtomicBoolean());
            committed += afterFailover.get();
        } finally {
            RootContext.unbind();
            SharedStack.restart(Component.REDIS_CLUSTER);
        }
        System.out.printf("master dies while its replica lags: the Try sent while the replica was frozen got %d;"
                + " then %d orders committed of %d units, answers %s; Confirms without a fence record so far: %.0f%n",
                lagging, committed, stocked, answers, confirmsWithoutRecord() - withoutRecordBefore);
        try {
            assertThat(lagging).as("a Try whose writes the frozen replica cannot have is not acknowledged")
                    .isEqualTo(503);
            assertThat(answers.keySet()).as("every answer a sale, a refusal or a 503 to retry, never a 500")
                    .isSubsetOf(201, 409, 503);
            assertThat(answers).as("the sale went on after the failover until sold out").containsKey(409);
            String promotedRunId = FailoverBuyers.serverInfo(masterAndReplica[1], "run_id");
            await().atMost(Duration.ofMinutes(3)).until(() -> promotedRunId.equals(
                    String.valueOf(redis.opsForHash().get(StockKeys.stock(sku), "epoch"))));
            int sold = committed;
            await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong()
                    == sold && inventory.stock(sku).at("/redis/reserved").asLong() == 0);
            JsonNode stock = inventory.stock(sku);
            assertThat(committed).isEqualTo(stocked);
            assertThat(stock.at("/redis/sold").asLong()).isEqualTo(stocked);
            assertThat(stock.at("/redis/available").asLong()).isZero();
            assertThat(stock.at("/mysql/reserved").asLong()).isZero();
            assertThat(confirmsWithoutRecord() - withoutRecordBefore)
                    .as("Confirms that found no fence record: Tries acknowledged and then lost").isZero();
        } finally {
            promote(masterAndReplica[0]);
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(this::theServiceReachesEveryMaster);
        }
    }

    @Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

    /** Confirms so far that found no fence record and took the units from stock, or could not. */
    private double confirmsWithoutRecord() {
        return meters.find("inventory.phase.outcomes").tag("phase", "confirm").counters().stream()
                .filter(c -> List.of("taken_unrecorded", "oversold").contains(c.getId().getTag("outcome")))
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    /** What a fault does to the cluster in the middle of a sale. */
    private interface MidSale {
        void strike() throws Exception;
    }

    /**
     * The orders 8 buyers committed, whether a buyer met the SKU sold out (a 409) before they stopped, and every
     * answer they got.
     */
    private record EightBuyers(java.util.concurrent.atomic.AtomicInteger committed, boolean soldOut,
                               Map<Integer, Integer> answers) {
    }

    /** 8 buyers buy one unit at a time until {@code sku} sells out; {@code fault} strikes once 30 orders committed. */
    private EightBuyers eightBuyersUntilSoldOut(String sku, MidSale fault) throws Exception {
        java.util.concurrent.atomic.AtomicInteger committed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean soldOut = new java.util.concurrent.atomic.AtomicBoolean();
        Map<Integer, Integer> answers = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        List<java.util.concurrent.Future<?>> running = new java.util.ArrayList<>();
        for (int b = 0; b < 8; b++) {
            running.add(pool.submit(() -> buyers.buyUntilSoldOut(sku, Duration.ofMinutes(3), answers, committed,
                    soldOut)));
        }
        boolean sold;
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> committed.get() >= 30);
            fault.strike();
            for (java.util.concurrent.Future<?> f : running) {
                f.get(4, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            // read before the buyers are told to stop: only a 409 sets it until then
            sold = soldOut.getAndSet(true);
            pool.shutdownNow();
        }
        return new EightBuyers(committed, sold, answers);
    }

    /** A read through the service's own Redis client answers in each third of the slots (one per master). */
    private boolean theServiceReachesEveryMaster() {
        Map<Integer, String> keyPerThird = new java.util.TreeMap<>();
        for (int i = 0; keyPerThird.size() < 3; i++) {
            String key = "probe:{" + i + "}";
            keyPerThird.putIfAbsent(ClusterSlotHashUtil.calculateSlot(key) * 3 / 16384, key);
        }
        keyPerThird.values().forEach(key -> redis.opsForValue().get(key));
        return true;
    }

    @Autowired
    org.springframework.data.redis.core.StringRedisTemplate redis;

    @Autowired
    io.github.flashstock.inventory.rebuild.SkuRebuilds recovery;

    /** The ports of the master serving {@code sku}'s slot now and of its replica, as the devstack reads them. */
    private static int[] masterAndReplicaOf(String sku) {
        int[] pair = SharedStack.redisClusterMasterAndReplicaOf(StockKeys.stock(sku));
        assertThat(pair[1]).as("a replica of the master serving %s", sku).isPositive();
        return pair;
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica, then waits until it is a master that every node agrees on. A manual
     * failover that cannot finish within Redis's own limit (5 s: the replica must first catch up with its master's
     * offset) is abandoned by the server, not retried, so the command is issued again until it takes effect.
     */
    private static void promote(int replicaPort) {
        await().atMost(Duration.ofSeconds(60)).until(() -> FailoverBuyers.serverInfo(replicaPort, "role", "replication")
                .equals("master") || FailoverBuyers.serverInfo(replicaPort, "master_link_status", "replication").equals("up"));
        for (int attempt = 1; ; attempt++) {
            if (!"master".equals(FailoverBuyers.serverInfo(replicaPort, "role", "replication"))) {
                FailoverBuyers.onNode(replicaPort, c -> c.clusterFailover(false));
            }
            try {
                await().atMost(Duration.ofSeconds(15)).until(() -> "master".equals(FailoverBuyers.onNode(replicaPort,
                        c -> String.valueOf(c.role().get(0)))) && FailoverBuyers.onNode(firstNodePort(), c -> c.clusterInfo())
                        .contains("cluster_state:ok"));
                // and every node has heard of it: the old master is a replica now in each node's view (gossip
                // takes a moment; a test reading the topology from a node that has not heard yet sees two masters)
                await().atMost(Duration.ofSeconds(30)).until(ClusterReservationIT::everyNodeSeesThreePairs);
                return;
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                if (attempt == 4) {
                    throw e;
                }
            }
        }
    }

    /** Every node's view: three masters, three replicas, none of them failing. */
    private static boolean everyNodeSeesThreePairs() {
        for (String node : SharedStack.endpoints().redisClusterNodes()) {
            List<String> lines = FailoverBuyers.onNode(port(node), c -> c.clusterNodes()).lines().toList();
            if (lines.stream().filter(l -> l.contains("master")).count() != 3
                    || lines.stream().filter(l -> l.contains("slave")).count() != 3
                    || lines.stream().anyMatch(l -> l.contains("fail"))) {
                return false;
            }
        }
        return true;
    }

    private static int firstNodePort() {
        return port(SharedStack.endpoints().redisClusterNodes().get(0));
    }

    /** {@code 127.0.0.1:16381@26381} or {@code 127.0.0.1:16381} to 16381. */
    private static int port(String address) {
        String hostPort = address.split("@")[0];
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }
}
