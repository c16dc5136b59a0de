package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * A Try of a SKU that sold out is refused before it becomes a branch ({@link SoldOutShortcut}), and only while it
 * is sold out: the coordinator then has no inventory branch to roll back, so this service sees neither the Try's
 * script nor a Cancel. On the real TC, Redis and MariaDB.
 */
class SoldOutShortcutIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Autowired
    MeterRegistry meters;

    InventoryClient inventory;

    @BeforeEach
    void client() {
        inventory = new InventoryClient(http);
    }

    @AfterEach
    void unbind() {
        RootContext.unbind();
    }

    private static GlobalTransaction begin() throws Exception {
        return GlobalTransactions.begin("sold-out-it");
    }

    private long phases(String phase) {
        Timer timer = meters.find("inventory.phase").tag("phase", phase).timer();
        return timer == null ? 0 : timer.count();
    }

    private double refusedEarly() {
        var counter = meters.find("inventory.reservations.refused-early").counter();
        return counter == null ? 0 : counter.count();
    }

    /** One order of one unit in a global transaction of its own: the Try's answer, then commit (201) or rollback. */
    private ResponseEntity<JsonNode> order(String sku, String user) throws Exception {
        GlobalTransaction tx = begin();
        try {
            ResponseEntity<JsonNode> answer = inventory.reserve(tx.getXid(), "order-" + UUID.randomUUID(), user,
                    List.of(new InventoryClient.Item(sku, 1)));
            if (answer.getStatusCode().value() == 201) {
                tx.commit();
            } else {
                tx.rollback();
            }
            return answer;
        } finally {
            RootContext.unbind();
        }
    }

    private void restock(String sku, int units) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("Idempotency-Key", "restock-" + UUID.randomUUID());
        ResponseEntity<JsonNode> restocked = http.exchange("/admin/skus/" + sku + "/restock", HttpMethod.POST,
                new HttpEntity<>(Map.of("quantity", units), headers), JsonNode.class);
        assertThat(restocked.getStatusCode().value()).as("%s", restocked.getBody()).isEqualTo(200);
    }

    @Test
    void triesOfASoldOutSkuAreRefusedWithoutABranchUntilUnitsComeBack() throws Exception {
        String sku = inventory.skuWith(2, null, 2);
        assertThat(order(sku, "u-1").getStatusCode().value()).isEqualTo(201);
        assertThat(order(sku, "u-2").getStatusCode().value()).isEqualTo(201);
        // the first refusal is the Try's own: a branch, its script, and the rollback's Cancel
        long cancelsBefore = phases("cancel");
        ResponseEntity<JsonNode> first = order(sku, "u-3");
        assertThat(first.getStatusCode().value()).isEqualTo(409);
        await().atMost(Duration.ofSeconds(30)).until(() -> phases("cancel") == cancelsBefore + 1);

        // 32 buyers at once after it: every one told the truth (sold out, 0 available), none a branch
        long tries = phases("try");
        long cancels = phases("cancel");
        double early = refusedEarly();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<ResponseEntity<JsonNode>>> answers = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String user = "late-" + i;
            answers.add(pool.submit(() -> order(sku, user)));
        }
        for (Future<ResponseEntity<JsonNode>> answer : answers) {
            ResponseEntity<JsonNode> refused = answer.get(60, TimeUnit.SECONDS);
            assertThat(refused.getStatusCode().value()).as("%s", refused.getBody()).isEqualTo(409);
            assertThat(refused.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:insufficient-stock");
            assertThat(refused.getBody().path("skuId").asText()).isEqualTo(sku);
            assertThat(refused.getBody().path("requested").asInt()).isEqualTo(1);
            assertThat(refused.getBody().path("available").asInt()).isZero();
        }
        pool.shutdown();
        assertThat(refusedEarly() - early).isEqualTo(32);
        assertThat(phases("try")).isEqualTo(tries);
        // a Cancel would have come within the rollbacks, which all returned: none comes, watched for half a second
        // after them; the first that did would fail the test then and there
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .failFast("a Cancel reached a Try refused without a branch",
                        () -> assertThat(phases("cancel")).isEqualTo(cancels))
                .until(() -> phases("cancel") == cancels);

        // units that come back sell to the very next Try: the read is fresh, never remembered
        restock(sku, 1);
        assertThat(order(sku, "after-restock").getStatusCode().value()).isEqualTo(201);
        assertThat(order(sku, "after-that").getStatusCode().value()).isEqualTo(409);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/stocked").asLong()).isEqualTo(3);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(3);
        assertThat(stock.at("/redis/available").asLong()).isZero();
    }

    @Test
    void aTryThatTookTheLastUnitIsAnsweredAsReservedWhenItComesAgain() throws Exception {
        String sku = inventory.skuWith(1, null, 1);
        assertThat(order(sku, "u-0").getStatusCode().value()).isEqualTo(201);
        restock(sku, 1);
        assertThat(order(sku, "u-1").getStatusCode().value()).isEqualTo(201);
        assertThat(order(sku, "u-2").getStatusCode().value()).isEqualTo(409);
        restock(sku, 1);

        // a Try reserves the last unit; its answer is lost and the caller sends it again, once the SKU is sold out
        GlobalTransaction tx = begin();
        String reservation = "order-" + UUID.randomUUID();
        List<InventoryClient.Item> one = List.of(new InventoryClient.Item(sku, 1));
        assertThat(inventory.reserve(tx.getXid(), reservation, "bob", one).getStatusCode().value()).isEqualTo(201);
        ResponseEntity<JsonNode> again = inventory.reserve(tx.getXid(), reservation, "bob", one);

        // the read cannot speak for a reservation Redis already has a record of: the Try answers, as a replay
        assertThat(again.getStatusCode().value()).as("%s", again.getBody()).isEqualTo(201);
        tx.commit();
        RootContext.unbind();
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 3);
        assertThat(inventory.stock(sku).at("/redis/sold").asLong()).isEqualTo(3);
    }

    @Test
    void buyersRacingForUnitsThatComeAndGoAreNeverSoldMoreThanThereIs() throws Exception {
        String sku = inventory.skuWith(5, null, 4);
        double early = refusedEarly();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(33);
        List<Future<List<ResponseEntity<JsonNode>>>> buyers = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int thread = t;
            buyers.add(pool.submit(() -> {
                List<ResponseEntity<JsonNode>> answers = new ArrayList<>();
                for (int i = 0; !done.get(); i++) {
                    answers.add(order(sku, "racer-" + thread + "-" + i));
                }
                return answers;
            }));
        }
        // three times: once the SKU is sold out (and refused early), 5 units arrive while the buyers keep coming
        Future<?> restocker = pool.submit(() -> {
            for (int round = 0; round < 4; round++) {
                double before = refusedEarly();
                await().atMost(Duration.ofSeconds(60)).until(() -> refusedEarly() > before
                        && inventory.stock(sku).at("/redis/available").asLong() == 0);
                if (round < 3) {
                    restock(sku, 5);
                }
            }
            done.set(true);
            return null;
        });
        int confirmed = 0;
        int refused = 0;
        try {
            restocker.get(240, TimeUnit.SECONDS);
            for (Future<List<ResponseEntity<JsonNode>>> buyer : buyers) {
                for (ResponseEntity<JsonNode> a : buyer.get(60, TimeUnit.SECONDS)) {
                    assertThat(a.getStatusCode().value()).as("%s", a.getBody()).isIn(201, 409);
                    if (a.getStatusCode().value() == 201) {
                        confirmed++;
                    } else {
                        refused++;
                        assertThat(a.getBody().path("type").asText())
                                .isEqualTo("urn:flashstock:problem:insufficient-stock");
                        assertThat(a.getBody().path("available").asInt()).isZero();
                    }
                }
            }
        } finally {
            done.set(true); // no buyer outlives the test, whatever failed
            pool.shutdown();
            pool.awaitTermination(60, TimeUnit.SECONDS);
        }

        // 20 units in all (5, then 3 restocks of 5), each sold once, refusals only while none was available
        assertThat(confirmed).isEqualTo(20);
        assertThat(refusedEarly() - early).isGreaterThanOrEqualTo(4).isLessThanOrEqualTo(refused);
        await().atMost(Duration.ofSeconds(30)).until(() -> inventory.stock(sku).at("/mysql/sold").asLong() == 20);
        JsonNode stock = inventory.stock(sku);
        assertThat(stock.at("/redis/stocked").asLong()).isEqualTo(20);
        assertThat(stock.at("/redis/sold").asLong()).isEqualTo(20);
        assertThat(stock.at("/redis/available").asLong()).isZero();
        assertThat(stock.at("/redis/reserved").asLong()).isZero();
    }
}
