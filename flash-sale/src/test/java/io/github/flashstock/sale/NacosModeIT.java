package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Both services in Nacos mode against the devstack's real Nacos server, in a namespace and a group of their own:
 * {@code nacos-config/import.sh} publishes the dataIds, two inventory instances and order-demo start from them and
 * register, order-demo finds inventory by service name through Nacos, and changes published in Nacos reach the
 * running services. Then the faults: one inventory instance killed mid-sale, and Nacos itself stopped mid-sale.
 * <p>
 * The usual production wiring throughout: the services find their Seata TC in Nacos too ({@code SEATA_REGISTRY=nacos},
 * the fixed TC address pointing nowhere). A TC of the devstack's of its own (own home, ports
 * {@code flashstock.it.seata-nacos.port}, default 28091, console 1000 below) registers in the shared Nacos as
 * {@code seata-server} in {@code SEATA_GROUP}; every order of every test here commits or rolls back through it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NacosModeIT {

    private static final String NAMESPACE = "flashstock-it-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String GROUP = "FLASHSTOCK_IT";

    private static Endpoints stack;
    private static DevStack tcStack;
    private static NacosAdmin nacos;
    private static NacosAdmin.ImportRun imported;
    private static Services services;
    private static Http http;

    @BeforeAll
    static void publishTheConfigurationAndStartTheServicesFromIt() {
        stack = SharedStack.ensure(Component.defaults());
        nacos = new NacosAdmin(NacosConnection.of(stack.nacosAddress()).inNamespace(NAMESPACE, GROUP));
        assertThat(nacos.createNamespace()).isTrue();
        imported = nacos.importFolder(NacosFixture.ROOT);
        assertThat(imported.exitCode()).as(imported.output()).isZero();
        tcStack = tcRegisteredInNacos();
        tcStack.up(EnumSet.of(Component.SEATA));
        services = NacosFixture.start(tcStack.endpoints(), nacos.connection(), 2, "nacos-it");
        http = Http.of(services);
    }

    /** The shared stack's servers, but a TC of its own that registers in Nacos. */
    private static DevStack tcRegisteredInNacos() {
        Map<String, String> settings = new HashMap<>();
        for (String option : DevStackConfig.fromEnvironment().asSystemProperties()) {
            String[] kv = option.substring(2).split("=", 2);
            settings.put(kv[0], kv[1]);
        }
        int port = Integer.parseInt(System.getProperty("flashstock.it.seata-nacos.port", "28091"));
        settings.put("devstack.home", NacosFixture.ROOT.resolve(".devstack/seata-nacos-it").toString());
        settings.put("devstack.seata.port", Integer.toString(port));
        settings.put("devstack.seata.console-port", Integer.toString(port - 1000));
        settings.put("devstack.seata.registry", "nacos");
        return new DevStack(DevStackConfig.from(settings));
    }

    @AfterAll
    static void stopTheServices() {
        if (services != null) {
            services.close();
        }
        if (tcStack != null) {
            tcStack.down();
            // the stack takes its TC's registration out of Nacos as it stops it
            assertThat(new NacosAdmin(NacosConnection.of(tcStack.endpoints().nacosAddress())
                    .inNamespace("", "SEATA_GROUP")).instances("seata-server"))
                    .doesNotContain("127.0.0.1:" + tcStack.config().seataPort());
        }
    }

    @Test
    @Order(1)
    void importShPublishesEveryDataIdWholeIntoTheNamespaceAndGroup() throws Exception {
        List<Path> files;
        try (var listing = Files.list(NacosFixture.ROOT.resolve("nacos-config"))) {
            files = listing.filter(p -> p.toString().endsWith(".yaml") && !p.toString().endsWith("-skus.yaml"))
                    .sorted().toList();
        }
        assertThat(files).hasSize(2);
        assertThat(imported.output()).contains("2 dataId(s) published")
                .contains("left inventory-service-skus.yaml to the sale console");
        assertThat(nacos.read("inventory-service-skus.yaml")).as("the console's to write").isEmpty();
        for (Path file : files) {
            String dataId = file.getFileName().toString();
            assertThat(nacos.read(dataId)).as(dataId).hasValue(Files.readString(file));
        }
        NacosAdmin defaultGroup = new NacosAdmin(NacosConnection.of(stack.nacosAddress()).inNamespace(NAMESPACE, ""));
        assertThat(defaultGroup.read("order-demo.yaml")).as("nothing published outside the group").isEmpty();
    }

    @Test
    @Order(2)
    void bothServicesRegisterAndOrderDemoFindsEveryInventoryInstanceThroughNacos() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(nacos.healthyInstances("inventory-service")).containsExactlyInAnyOrderElementsOf(
                    services.inventories().stream().map(s -> s.url().substring("http://".length())).toList());
            assertThat(nacos.healthyInstances("order-demo")).hasSize(1);
        });
        String sku = "nacos-disc-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(http.createSku(sku, 100, 100).status()).isEqualTo(201);

        for (int i = 0; i < 12; i++) {
            assertThat(http.placeOrder(order("dora", sku, 1)).status()).isEqualTo(201);
        }

        // round robin over what Nacos lists: both instances took reservations (the fallback list points nowhere)
        for (ServiceProcess inventory : services.inventories()) {
            assertThat(NacosFixture.metric(inventory.url(), services.adminToken(), "http.server.requests", "uri:/reservations"))
                    .as(inventory.name() + " served reservations").isPositive();
        }
    }

    @Test
    @Order(3)
    void ordersCommitAndRollBackThroughTheTcFoundInNacos() {
        NacosAdmin seataGroup = new NacosAdmin(NacosConnection.of(stack.nacosAddress()).inNamespace("", "SEATA_GROUP"));
        // this TC alone: another stack's TC left listed would take part of the calls to a store that is not this one's
        assertThat(seataGroup.healthyInstances("seata-server"))
                .containsExactly("127.0.0.1:" + tcStack.config().seataPort());
        String sku = "seata-nacos-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 3, 10);

        Http.Reply committed = http.placeOrder(order("tia", sku, 3));
        Http.Reply rolledBack = http.placeOrder(order("uma", sku, 1));

        assertThat(committed.status()).isEqualTo(201);
        assertThat(rolledBack.status()).isEqualTo(409);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(http.readOrder("tia", committed.body().path("orderId").asText()).body().path("status").asText())
                    .isEqualTo("CONFIRMED");
            assertThat(http.readOrder("uma", rolledBack.body().path("orderId").asText()).body().path("status").asText())
                    .isEqualTo("CANCELLED");
            assertThat(http.stock(sku).path("mysql").path("sold").asInt()).isEqualTo(3);
            assertThat(http.stock(sku).path("redis").path("reserved").asInt()).isZero();
        });
    }

    @Test
    @Order(4)
    void anOrderLimitPublishedInNacosReachesOrderDemo() {
        String original = NacosFixture.file("order-demo.yaml");
        String sku = "nacos-limit-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 500, 500);
        assertThat(original).contains("max-units-per-order: 10");
        try {
            assertThat(nacos.publish("order-demo.yaml", original.replace("max-units-per-order: 10",
                    "max-units-per-order: 3"))).isTrue();

            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                Http.Reply refused = http.placeOrder(order("ned", sku, 4));
                assertThat(refused.status()).isEqualTo(409);
                assertThat(refused.type()).isEqualTo("urn:flashstock:problem:order-limit-exceeded");
                assertThat(refused.body().path("limit").asInt()).isEqualTo(3);
            });
        } finally {
            nacos.publish("order-demo.yaml", original);
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> http.placeOrder(order("ned", sku, 4)).status() == 201);
    }

    @Test
    @Order(5)
    void aSegmentCountPublishedDuringASaleReachesBothInstancesAndResegmentsOnce() {
        String sku = "nacos-seg-" + UUID.randomUUID().toString().substring(0, 8);
        String original = NacosFixture.file("inventory-service.yaml");
        double resegmentedBefore = sum("inventory.segments.applied", "result:resegmented");
        double unchangedBefore = sum("inventory.segments.applied", "result:unchanged");
        AtomicLong appliedAfterMillis = new AtomicLong(-1);
        SalePlan plan = new SalePlan(List.of(new SalePlan.SkuOnSale(sku, 300, 2, 1)), 500, 400, 16, 0, 7);

        SaleReport report = new FlashSale(services.order().url(), services.inventory().url(), services.adminToken(),
                services.buyers(), System.out).during(new FlashSale.MidSale(100, "segments of " + sku + " 1 -> 4 in Nacos", () -> {
                    long published = System.currentTimeMillis();
                    if (!nacos.publish("inventory-service.yaml", NacosAdmin.withSegmentCount(original, sku, 4))) {
                        throw new IllegalStateException("Nacos refused the change");
                    }
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() ->
                            sum("inventory.segments.applied", "result:resegmented") - resegmentedBefore
                                    + sum("inventory.segments.applied", "result:unchanged") - unchangedBefore >= 2);
                    // each instance's own clock of when it applied (one machine, one clock): the time this test's
                    // polling of the metrics took under the sale's load is not the change's
                    long applied = services.inventories().stream().mapToLong(i -> Math.round(1000
                            * NacosFixture.metric(i.url(), services.adminToken(), "inventory.segments.last-applied", null))).max()
                            .orElseThrow();
                    appliedAfterMillis.set(applied - published);
                    return "applied on both instances " + appliedAfterMillis.get() + " ms after publishing";
                })).run(plan);
        report.print(System.out);

        assertThat(report.errors()).isZero();
        assertThat(report.oversold()).isZero();
        assertThat(appliedAfterMillis.get()).as("publish to applied on both instances, ms")
                .isBetween(0L, 2_000L);
        assertThat(sum("inventory.segments.applied", "result:resegmented") - resegmentedBefore)
                .as("re-segmented exactly once").isEqualTo(1);
        assertThat(sum("inventory.segments.applied", "result:unchanged") - unchangedBefore)
                .as("the other instance found it done").isEqualTo(1);
        awaitStoresAgree(sku, 300);
        assertThat(http.stock(sku).path("redis").path("segments").asInt()).isEqualTo(4);
        assertThat(http.stock(sku).path("mysql").path("sold").asInt()).as("sold out, nothing lost, by Redis and the"
                + " MySQL store together").isEqualTo(300);

        // an invalid value is rejected by each instance and the count in force stays
        List<Double> rejectedBefore = services.inventories().stream()
                .map(s -> NacosFixture.metric(s.url(), services.adminToken(), "inventory.segments.rejected", null)).toList();
        try {
            assertThat(nacos.publish("inventory-service.yaml",
                    NacosAdmin.withSegmentCount(original, sku, 0))).isTrue();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                for (int i = 0; i < services.inventories().size(); i++) {
                    ServiceProcess instance = services.inventories().get(i);
                    if (NacosFixture.metric(instance.url(), services.adminToken(), "inventory.segments.rejected", null)
                            <= rejectedBefore.get(i)) {
                        return false;
                    }
                }
                return true;
            });
            assertThat(http.stock(sku).path("redis").path("segments").asInt()).isEqualTo(4);
        } finally {
            nacos.publish("inventory-service.yaml", original);
        }
    }

    /**
     * The sale console in a real browser against both instances: a wrong token is refused, the counts are the stock
     * view's, both instances' health is there, a running sale moves the counts and the rates, a restock through the
     * page changes the stock, a bad one shows the problem's message and changes nothing, and a segment count set on
     * the page is published in Nacos and applied by the instances. Screenshots in target/console/.
     */
    @Test
    @Order(6)
    void theSaleConsoleFollowsASaleOnBothInstancesAndActsThroughTheApiAndNacos() throws Exception {
        String run = "console-" + UUID.randomUUID().toString().substring(0, 8);
        String quiet = run + "-quiet";
        String hot = run + "-hot";
        assertThat(http.createSku(quiet, 120, 3).status()).isEqualTo(201);
        String published = nacos.read("inventory-service.yaml").orElseThrow();
        try (SaleConsoleBrowser page = SaleConsoleBrowser.open(services.inventory().url())) {
            page.signIn("not-the-admin-token-" + run);
            await().atMost(Duration.ofSeconds(15)).until(() -> !page.loginError().isEmpty());
            assertThat(page.loginError()).contains("refused");
            assertThat(page.signedIn()).as("nothing shown without the token").isFalse();

            page.signIn(services.adminToken());
            await().atMost(Duration.ofSeconds(15)).until(page::signedIn);
            assertThat(page.url()).as("the token stays out of the address").doesNotContain(services.adminToken());
            page.filter(run);

            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertShowsTheStockView(page, quiet));
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                assertThat(page.instances()).as("one row per instance").hasSize(2)
                        .allSatisfy(row -> assertThat(row).contains("closed").contains("fsync: holds")
                                .containsPattern("[0-9.]+ MB \\(no maxmemory\\)")
                                .containsPattern("127\\.0\\.0\\.1:[0-9]+ ✓"));
                assertThat(page.registered()).contains(services.inventories().get(1).url().substring(7));
            });

            SalePlan plan = new SalePlan(List.of(new SalePlan.SkuOnSale(hot, 300, 2, 1)), 1500, 1200, 16, 0, 17);
            CompletableFuture<SaleReport> sale = CompletableFuture.supplyAsync(() -> new FlashSale(
                    services.order().url(), services.inventory().url(), services.adminToken(), services.buyers(),
                    System.out).run(plan));
            Set<String> availableShown = new HashSet<>();
            double[] peaks = new double[2];
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                String available = page.field(hot, "redis.available");
                if (available != null) {
                    availableShown.add(available);
                }
                peaks[0] = Math.max(peaks[0], page.figure("rate-tries"));
                peaks[1] = Math.max(peaks[1], page.figure("rate-confirms"));
                if (availableShown.size() == 2) {
                    page.screenshot("sale-running");
                }
                return availableShown.size() >= 2 && peaks[0] > 0 && peaks[1] > 0;
            });
            page.screenshot("sale-running");
            SaleReport report = sale.get(3, TimeUnit.MINUTES);
            report.print(System.out);
            assertThat(report.errors()).isZero();
            assertThat(report.oversold()).isZero();
            awaitStoresAgree(hot, 300);
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertShowsTheStockView(page, hot));

            // a bad restock first, while the SKU rests (its reserve was set when it was created): nothing may move
            page.select(quiet);
            JsonNode beforeBadRestock = http.stock(quiet);
            page.restock("0");
            SaleConsoleBrowser.Message refused = page.awaitMessage();
            page.screenshot("bad-restock");
            assertThat(refused.ok()).isFalse();
            assertThat(refused.text()).contains("Invalid request: quantity: must be greater than 0 (400)");
            JsonNode afterBadRestock = http.stock(quiet);
            for (String side : List.of("redis", "mysql")) {
                assertThat(afterBadRestock.path(side).path("stocked").asLong()).as(side + " stocked: nothing changed")
                        .isEqualTo(beforeBadRestock.path(side).path("stocked").asLong());
            }
            assertThat(afterBadRestock.path("mysql").path("allotment"))
                    .isEqualTo(beforeBadRestock.path("mysql").path("allotment"));

            page.restock("30");
            SaleConsoleBrowser.Message restocked = page.awaitMessage();
            assertThat(restocked.ok()).as(restocked.text()).isTrue();
            assertThat(restocked.text()).contains("Restocked " + quiet);
            assertThat(http.stock(quiet).path("mysql").path("stocked").asLong()).isEqualTo(150);
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertShowsTheStockView(page, quiet));

            page.setSegments("4");
            SaleConsoleBrowser.Message segmented = page.awaitMessage();
            assertThat(segmented.ok()).as(segmented.text()).isTrue();
            assertThat(segmented.text()).contains("published in Nacos");
            assertThat(nacos.read("inventory-service-skus.yaml")).hasValueSatisfying(yaml -> assertThat(yaml)
                    .contains("\"[" + quiet + "]\": 4"));
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                assertThat(http.stock(quiet).path("redis").path("segments").asInt()).isEqualTo(4);
                assertThat(page.field(quiet, "redis.segments")).isEqualTo("4");
            });
            page.screenshot("console");
        } finally {
            nacos.publish("inventory-service.yaml", published);
        }
    }

    /**
     * Eight operators change eight SKUs' settings at once through both instances: each change is published whole or
     * refused as {@code settings-changed-meanwhile}, and none that was answered 202 is lost to another's publish
     * (Nacos's compare-and-set on the dataId), nor does any change another SKU's line. The SKUs' ids hold what Spring's
     * binding would rewrite without brackets (a leading '-', '_', '.'): each change lands on exactly its SKU, and the
     * SKU whose id that rewriting would give keeps its count. All of it goes to the per-SKU settings' dataId; the
     * service's own dataId is left as it was.
     */
    @Test
    @Order(7)
    void concurrentSettingsChangesThroughBothInstancesLoseNoPublishedChange() throws Exception {
        String run = "settings-" + UUID.randomUUID().toString().substring(0, 8);
        int operators = 8;
        List<String> skus = new java.util.ArrayList<>();
        List<String> twins = new java.util.ArrayList<>();
        for (int i = 0; i < operators; i++) {
            skus.add("-" + run + "_" + i + ".A");
            // what binding would make of the id without brackets: '-' and '_' dropped, upper case lowered
            twins.add(run + i + ".a");
            assertThat(http.createSku(skus.get(i), 100, 5).status()).isEqualTo(201);
            assertThat(http.createSku(twins.get(i), 100, 5).status()).isEqualTo(201);
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(operators);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Http.Reply>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < operators; i++) {
                String sku = skus.get(i);
                String instance = services.inventories().get(i % 2).url();
                int segments = 2 + i % 3;
                int share = 10 + i;
                answers.add(pool.submit(() -> {
                    start.await();
                    return http.skuSettings(instance, sku, "{\"segments\":" + segments + ",\"allotment\":\"" + share
                            + "%\"}");
                }));
            }
            start.countDown();
            String finalYaml;
            List<Integer> accepted = new java.util.ArrayList<>();
            for (int i = 0; i < operators; i++) {
                Http.Reply reply = answers.get(i).get(1, TimeUnit.MINUTES);
                assertThat(reply.status()).as("%s", reply.body()).isIn(202, 409);
                if (reply.status() == 202) {
                    accepted.add(i);
                    assertThat(reply.body().path("dataId").asText()).isEqualTo("inventory-service-skus.yaml");
                } else {
                    assertThat(reply.type()).isEqualTo("urn:flashstock:problem:settings-changed-meanwhile");
                }
            }
            finalYaml = nacos.read("inventory-service-skus.yaml").orElseThrow();
            assertThat(nacos.read("inventory-service.yaml")).as("nothing of it in the service's own dataId")
                    .hasValueSatisfying(yaml -> assertThat(yaml).doesNotContain(run));
            assertThat(accepted).as("most changes get through").hasSizeGreaterThanOrEqualTo(operators / 2);
            for (int i = 0; i < operators; i++) {
                String sku = skus.get(i);
                if (accepted.contains(i)) {
                    assertThat(finalYaml).as(sku + " published and kept").contains("\"[" + sku + "]\": " + (2 + i % 3))
                            .contains("\"[" + sku + "]\": \"" + (10 + i) + "%\"");
                } else {
                    assertThat(finalYaml).as(sku + " refused, so absent").doesNotContain(sku);
                }
            }
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                for (int i : accepted) {
                    assertThat(http.stock(skus.get(i)).path("redis").path("segments").asInt()).isEqualTo(2 + i % 3);
                }
            });
            for (String twin : twins) {
                assertThat(http.stock(twin).path("redis").path("segments").asInt()).as(twin + " untouched")
                        .isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
            nacos.publish("inventory-service-skus.yaml", NacosFixture.file("inventory-service-skus.yaml"));
        }
    }

    /** The page's row of the SKU shows, field by field, what {@code GET /skus/{id}/stock} answers now. */
    private static void assertShowsTheStockView(SaleConsoleBrowser page, String sku) {
        JsonNode stock = http.stock(sku);
        for (String field : List.of("redis.stocked", "redis.available", "redis.reserved", "redis.sold",
                "mysql.stocked", "mysql.available", "mysql.reserved", "mysql.sold", "mysql.allotment.available",
                "mysql.allotment.incoming", "mysql.allotment.sold", "redis.segments")) {
            JsonNode value = stock;
            for (String part : field.split("\\.")) {
                value = value.path(part);
            }
            assertThat(page.field(sku, field)).as(sku + " " + field)
                    .isEqualTo(String.format(Locale.US, "%,d", value.asLong()));
        }
        assertThat(page.field(sku, "limit")).isEqualTo(String.valueOf(stock.path("redis").path("perUserLimit").asInt()));
    }

    /**
     * Anyone who can write to the registry (here: anyone, auth is off) registers an address of theirs as an inventory
     * instance, one that answers slowly, a byte at a time. The console's overview still answers at once, shows that
     * address as not verified, and the address never receives the operator's token, nor any other credential it could
     * use elsewhere; the real instances are read and verified as before.
     */
    @Test
    @Order(11) // last: order-demo finds the stranger in Nacos too, and its answers are nobody's business here
    void aStrangerRegisteredAsAnInventoryInstanceGetsNoCredentialAndIsShownAsNotVerified() throws Exception {
        List<Map<String, List<String>>> seen = new CopyOnWriteArrayList<>();
        HttpServer stranger = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stranger.createContext("/", exchange -> {
            seen.add(Map.copyOf(exchange.getRequestHeaders()));
            exchange.sendResponseHeaders(200, 0);
            try (var body = exchange.getResponseBody()) {
                for (int i = 0; i < 20; i++) {
                    body.write('{');
                    body.flush();
                    Thread.sleep(250);
                }
            } catch (InterruptedException | java.io.IOException e) {
                Thread.currentThread().interrupt();
            }
        });
        stranger.setExecutor(Executors.newCachedThreadPool());
        stranger.start();
        int port = stranger.getAddress().getPort();
        String address = "127.0.0.1:" + port;
        try {
            assertThat(nacos.register("inventory-service", "127.0.0.1", port)).isTrue();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Http.Reply overview = http.consoleOverview();
                assertThat(overview.status()).isEqualTo(200);
                JsonNode member = null;
                for (JsonNode m : overview.body().path("instances")) {
                    if (m.path("address").asText().equals(address)) {
                        member = m;
                    }
                }
                assertThat(member).as("the stranger is listed: %s", overview.body()).isNotNull();
                assertThat(member.path("verified").asBoolean()).isFalse();
                assertThat(member.path("reading").isNull()).isTrue();
                assertThat(member.path("error").asText()).contains("no answer within");
                assertThat(overview.body().path("instances")).filteredOn(m -> !m.path("address").asText()
                        .equals(address)).allSatisfy(m -> assertThat(m.path("verified").asBoolean()).isTrue())
                        .isNotEmpty();
            });
            assertThat(seen).as("the stranger was asked").isNotEmpty();
            for (Map<String, List<String>> headers : seen) {
                assertThat(headers.keySet()).noneMatch(h -> h.equalsIgnoreCase("Authorization"));
                assertThat(headers.values().stream().flatMap(List::stream))
                        .noneMatch(v -> v.contains(services.adminToken()));
            }
        } finally {
            nacos.deregister("inventory-service", "127.0.0.1", port);
            stranger.stop(0);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(nacos.instances("inventory-service")).doesNotContain(address));
        }
    }

    @Test
    @Order(9)
    void ordersGoOnThroughTheOtherInstanceWhenOneIsKilledMidSale() {
        String sku = "nacos-kill-" + UUID.randomUUID().toString().substring(0, 8);
        ServiceProcess victim = services.inventories().get(1);
        String victimAddress = victim.url().substring("http://".length());
        SalePlan plan = new SalePlan(List.of(new SalePlan.SkuOnSale(sku, 200, 2, 1)), 600, 480, 16, 0, 11);

        SaleReport report = new FlashSale(services.order().url(), services.inventory().url(), services.adminToken(),
                services.buyers(), System.out).during(new FlashSale.MidSale(150, "kill -9 " + victim.name(), () -> {
                    long pid = victim.pid();
                    victim.kill();
                    return "PID " + pid + " killed";
                })).run(plan);
        report.print(System.out);

        assertThat(report.errors()).as("no order failed because an instance died").isZero();
        assertThat(report.oversold()).isZero();
        assertThat(report.statusMismatches()).isZero();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(nacos.healthyInstances("inventory-service"))
                        .as("Nacos dropped the dead instance").doesNotContain(victimAddress).hasSize(1));
        awaitStoresAgree(sku, 200);
    }

    @Test
    @Order(10)
    void ordersGoOnWhileNacosIsDownAndAChangePublishedAfterItReturnsArrives() {
        String sku = "nacos-down-" + UUID.randomUUID().toString().substring(0, 8);
        SalePlan plan = new SalePlan(List.of(new SalePlan.SkuOnSale(sku, 150, 2, 1)), 400, 320, 16, 0, 13);

        SharedStack.during(Component.NACOS, () -> {
            SaleReport report = new FlashSale(services.order().url(), services.inventory().url(),
                    services.adminToken(), services.buyers(), System.out).run(plan);
            report.print(System.out);
            assertThat(report.errors()).as("no order failed because Nacos was away").isZero();
            assertThat(report.oversold()).isZero();
            assertThat(report.statusMismatches()).isZero();
        });
        awaitStoresAgree(sku, 150);

        // Nacos is back: the services reconnect, and a change published now still reaches them
        String original = NacosFixture.file("order-demo.yaml");
        String limitSku = "nacos-back-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(limitSku, 100, 100);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> nacos.publish("order-demo.yaml",
                    original.replace("max-units-per-order: 10", "max-units-per-order: 2")));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(http.placeOrder(order("olga", limitSku, 3)).status()).isEqualTo(409));
        } finally {
            nacos.publish("order-demo.yaml", original);
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                nacos.healthyInstances("order-demo")).as("order-demo registered again").hasSize(1));
    }

    /** A counter summed over the inventory instances (one that is gone counts 0). */
    private static double sum(String name, String tag) {
        return services.inventories().stream().mapToDouble(s -> NacosFixture.metric(s.url(), services.adminToken(), name, tag)).sum();
    }

    /**
     * Once the coordinator has finished every branch: Redis and MySQL agree (MySQL's sold is Redis's and the MySQL
     * store's, which sells the allotment once Redis has sold out), nothing reserved, nothing oversold.
     */
    private static void awaitStoresAgree(String sku, int stocked) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            StockCounts stock = StockCounts.of(http.stock(sku));
            assertThat(stock.reserved()).isZero();
            assertThat(stock.sold()).isEqualTo(stock.redisSold() + stock.allotmentSold());
            assertThat(stock.agree()).as("%s", stock).isTrue();
            assertThat(stock.unaccounted()).as("%s", stock).isZero();
            assertThat(stock.sold()).isLessThanOrEqualTo(stocked);
        });
    }
}
