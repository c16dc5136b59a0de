package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import tools.jackson.databind.JsonNode;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.stock.redis.StockKeys;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.apache.seata.tm.api.GlobalTransactionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The service on the devstack's Redis Cluster: a Try spanning slots runs one script per slot group. */
@DevStackTest({Component.REDIS_CLUSTER, Component.MARIADB, Component.SEATA, Component.ROCKETMQ})
class ClusterReservationIT extends InventoryITSupport {

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", SharedStack.endpoints().redisClusterNodes()));
        // the devstack's cluster nodes keep no AOF (this class is about slot groups, not durability)
        registry.add("inventory.durability", () -> "none");
    }

    @Autowired
    TestRestTemplate http;

    InventoryClient inventory;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
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
    void aTrySpanningSlotsWhoseSecondGroupIsRefusedEndsWithTheFirstReleasedByCancel() throws Exception {
        List<String> skus = skusInTwoSlots(10, 1);
        String plenty = skus.get(0);
        String scarce = skus.get(1);
        GlobalTransaction tx = GlobalTransactionContext.getCurrentOrCreate();
        tx.begin(60_000, "cluster-it");

        ResponseEntity<JsonNode> refused = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(plenty, 2), new InventoryClient.Item(scarce, 2)));
        // the first slot group was locked before the second refused
        assertThat(refused.getStatusCode().value()).as("%s", refused.getBody()).isEqualTo(409);
        assertThat(refused.getBody().path("skuId").asText()).isEqualTo(scarce);
        assertThat(inventory.stock(plenty).at("/redis/reserved").asLong()).isEqualTo(2);

        tx.rollback();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(plenty).at("/redis/reserved").asLong() == 0);
        JsonNode stock = inventory.stock(plenty);
        assertThat(stock.at("/redis/available").asLong()).isEqualTo(10);
        assertThat(stock.at("/redis/sold").asLong()).isZero();
        assertThat(inventory.stock(scarce).at("/redis/reserved").asLong()).isZero();
    }

    @Test
    void aTrySpanningSlotsCommitsEveryGroup() throws Exception {
        List<String> skus = skusInTwoSlots(10, 10);
        GlobalTransaction tx = GlobalTransactionContext.getCurrentOrCreate();
        tx.begin(60_000, "cluster-it");

        ResponseEntity<JsonNode> reserved = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), "alice",
                List.of(new InventoryClient.Item(skus.get(0), 1), new InventoryClient.Item(skus.get(1), 3)));
        assertThat(reserved.getStatusCode().value()).as("%s", reserved.getBody()).isEqualTo(201);
        tx.commit();

        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(skus.get(1)).at("/mysql/sold").asLong() == 3);
        assertThat(inventory.stock(skus.get(0)).at("/mysql/sold").asLong()).isEqualTo(1);
        assertThat(inventory.stock(skus.get(0)).at("/redis/available").asLong()).isEqualTo(9);
        assertThat(inventory.stock(skus.get(1)).at("/redis/available").asLong()).isEqualTo(7);
    }
}
