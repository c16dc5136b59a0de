package io.github.flashstock.inventory.segments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.LiveConfig;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * Segment counts changed in the service's configuration file and applied through Spring Cloud's refresh (the path a
 * Nacos push takes), in the middle of a sale run in real global transactions.
 */
class LiveSegmentsIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;
    @Autowired
    ContextRefresher refresher;
    @Autowired
    LiveSegments liveSegments;
    @Autowired
    SegmentSettingsReader reader;
    @Autowired
    ResegmentScript resegment;
    @Autowired
    StockCatalog catalog;
    @Autowired
    MeterRegistry meters;
    @Autowired
    ConfigurableEnvironment environment;

    private final String original = LiveConfig.read();

    @AfterEach
    void restoreConfiguration() {
        LiveConfig.write(original);
        refresher.refresh();
    }

    private void configure(String sku, String count) {
        // the segments' per-SKU map (the first "skus: {}" of the file; the allotments have one too)
        LiveConfig.write(original.replaceFirst("\n    skus: \\{}", "\n    skus:\n      " + sku + ": \"" + count + "\""));
        refresher.refresh();
    }

    private int segmentsOf(InventoryClient inventory, String sku) {
        return inventory.stock(sku).at("/redis/segments").asInt();
    }

    @Test
    void countChangedSeveralTimesDuringASaleLosesNothingAndFailsNoTryThatTheSkuCouldServe() throws Exception {
        InventoryClient inventory = new InventoryClient(http);
        long stocked = 1500;
        String hot = inventory.skuWith(stocked, null, 1);
        int buyers = 600;
        AtomicInteger finished = new AtomicInteger();
        AtomicLong confirmedUnits = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());

        // Given 600 buyers (1-2 units each, never more than the SKU has in all) in global transactions, 32 at a
        // time, each holding its reservation open for a moment, then paying or abandoning
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<?>> sale = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            int buyer = i;
            sale.add(pool.submit(() -> {
                int q = 1 + ThreadLocalRandom.current().nextInt(2);
                try {
                    GlobalTransaction tx = GlobalTransactions.begin("live-segments-it", Duration.ofMinutes(2));
                    ResponseEntity<JsonNode> r = inventory.reserve(tx.getXid(), "order-" + buyer, "user-" + buyer,
                            List.of(new InventoryClient.Item(hot, q)));
                    if (r.getStatusCode().value() != 201) {
                        failures.add(r.getStatusCode() + " " + r.getBody());
                        tx.rollback();
                        return null;
                    }
                    Thread.sleep(ThreadLocalRandom.current().nextInt(30));
                    if (buyer % 3 != 0) {
                        tx.commit();
                        confirmedUnits.addAndGet(q);
                    } else {
                        tx.rollback();
                    }
                } finally {
                    RootContext.unbind();
                    finished.incrementAndGet();
                }
                return null;
            }));
        }

        // When the operator changes the hot SKU's count 1 -> 8 -> 3 -> 1 while the sale runs
        List<Integer> seen = new ArrayList<>();
        for (int[] step : new int[][]{{100, 8}, {250, 3}, {400, 1}}) {
            await().atMost(Duration.ofMinutes(2)).until(() -> finished.get() >= step[0]);
            configure(hot, Integer.toString(step[1]));
            seen.add(segmentsOf(inventory, hot));
        }
        for (Future<?> f : sale) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        // Then each change was in force right after its refresh, and no Try failed
        assertThat(seen).containsExactly(8, 3, 1);
        assertThat(failures).isEmpty();
        // And every reservation ended; the units balance; Redis agrees with MySQL
        await().atMost(Duration.ofSeconds(60)).until(() -> inventory.stock(hot).at("/redis/reserved").asLong() == 0);
        // a Confirm whose MySQL step lost a deadlock returned false and is retried by Seata a moment later
        await().atMost(Duration.ofSeconds(60))
                .until(() -> inventory.stock(hot).at("/mysql/sold").asLong() == confirmedUnits.get());
        JsonNode s = inventory.stock(hot);
        long available = s.at("/redis/available").asLong();
        long sold = s.at("/redis/sold").asLong();
        long reserved = s.at("/redis/reserved").asLong();
        assertThat(available + reserved + sold).isEqualTo(stocked);
        assertThat(sold).isEqualTo(confirmedUnits.get());
        assertThat(s.at("/mysql/sold").asLong()).isEqualTo(sold);
        assertThat(s.at("/mysql/available").asLong()).isEqualTo(available);
        assertThat(s.at("/mysql/reserved").asLong()).isZero();
        long segmentUnits = 0;
        for (JsonNode segment : s.at("/redis/segmentDetails")) {
            segmentUnits += segment.path("available").asLong();
            assertThat(segment.path("reserved").asLong()).isZero();
        }
        assertThat(segmentUnits).as("the segments hold the SKU's available units").isEqualTo(available);
    }

    @Test
    void twoInstancesReceivingTheSameChangeResegmentTheSkuOnce() throws Exception {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(100, null, 1);
        // two more instances of the service's segment logic, on the same Redis and MySQL, seeing the same change
        LiveSegments first = new LiveSegments(reader, resegment, catalog, meters);
        LiveSegments second = new LiveSegments(reader, resegment, catalog, meters);
        MapPropertySource change = new MapPropertySource("two-instances-change",
                Map.of("inventory.segments.skus." + sku, "6"));
        environment.getPropertySources().addFirst(change);
        try {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Map<String, ResegmentOutcome>>> runs = new ArrayList<>();
            for (LiveSegments instance : List.of(first, second)) {
                runs.add(pool.submit(() -> {
                    start.await();
                    return instance.refresh();
                }));
            }
            start.countDown();
            List<ResegmentOutcome> outcomes = new ArrayList<>();
            for (Future<Map<String, ResegmentOutcome>> run : runs) {
                outcomes.add(run.get(1, TimeUnit.MINUTES).get(sku));
            }
            pool.shutdown();

            assertThat(outcomes).filteredOn(o -> o instanceof ResegmentOutcome.Resegmented).hasSize(1);
            assertThat(outcomes).filteredOn(o -> o instanceof ResegmentOutcome.Unchanged).hasSize(1);
            assertThat(segmentsOf(inventory, sku)).isEqualTo(6);
        } finally {
            environment.getPropertySources().remove(change.getName());
        }
    }

    @Test
    void anInvalidValueLeavesThePreviousCountInForce() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = inventory.skuWith(100, null, 1);
        configure(sku, "4");
        assertThat(segmentsOf(inventory, sku)).isEqualTo(4);
        double rejectedBefore = rejected();

        for (String invalid : List.of("0", "-2", "65", "lots")) {
            configure(sku, invalid);

            assertThat(segmentsOf(inventory, sku)).as(invalid).isEqualTo(4);
            assertThat(liveSegments.inForce().countFor(sku)).as(invalid).isEqualTo(4);
        }
        assertThat(rejected()).isEqualTo(rejectedBefore + 4);
    }

    @Test
    void aSkuCreatedWithoutACountGetsTheConfiguredOne() {
        InventoryClient inventory = new InventoryClient(http);
        String sku = "sku-configured-" + System.nanoTime();
        configure(sku, "5");

        catalogCreate(sku);

        assertThat(segmentsOf(inventory, sku)).isEqualTo(5);
    }

    private void catalogCreate(String sku) {
        org.springframework.http.HttpHeaders headers = new org.springframework.http.HttpHeaders();
        headers.setBearerAuth(ADMIN_TOKEN);
        headers.setContentType(org.springframework.http.MediaType.APPLICATION_JSON);
        ResponseEntity<String> r = http.exchange("/admin/skus/" + sku, org.springframework.http.HttpMethod.PUT,
                new org.springframework.http.HttpEntity<>(Map.of("stocked", 50), headers), String.class);
        assertThat(r.getStatusCode().value()).isEqualTo(201);
    }

    private double rejected() {
        return meters.find("inventory.segments.rejected").counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
