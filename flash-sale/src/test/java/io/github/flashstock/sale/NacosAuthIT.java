package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A second Nacos server of the devstack's, with auth on (its own home and ports, {@code flashstock.it.nacos-auth.port},
 * default 28848): {@code import.sh} needs the user's credentials, and both services start, load their dataIds and
 * find each other through it with them.
 */
class NacosAuthIT {

    private static DevStack authStack;
    private static Endpoints authNacos;

    @BeforeAll
    static void startANacosWithAuthOn() {
        SharedStack.ensure(Component.defaults());
        Path home = NacosFixture.ROOT.resolve(".devstack/nacos-auth-it");
        authStack = new DevStack(DevStackConfig.from(Map.of(
                "devstack.root", NacosFixture.ROOT.toString(),
                "devstack.home", home.toString(),
                "devstack.nacos.port", System.getProperty("flashstock.it.nacos-auth.port", "28848"),
                "devstack.nacos.auth", "true",
                "devstack.nacos.password", "it-" + UUID.randomUUID())));
        // a fresh server each run: its admin password is set once, on first start, and this run's is new
        authStack.down();
        deleteRecursively(home.resolve("nacos"));
        authStack.up(EnumSet.of(Component.NACOS));
        authNacos = authStack.endpoints();
    }

    @AfterAll
    static void stopIt() {
        if (authStack != null) {
            authStack.down();
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static NacosConnection connection() {
        return NacosConnection.of(authNacos.nacosAddress()).inNamespace("", "DEFAULT_GROUP");
    }

    @Test
    void importShIsRefusedWithoutCredentialsAndWithAWrongPassword() {
        NacosAdmin.ImportRun anonymous = new NacosAdmin(connection()).importFolder(NacosFixture.ROOT);
        NacosAdmin.ImportRun wrong = new NacosAdmin(connection().withCredentials(authNacos.nacosUsername(), "wrong"))
                .importFolder(NacosFixture.ROOT);

        assertThat(anonymous.exitCode()).as(anonymous.output()).isNotZero();
        assertThat(wrong.exitCode()).as(wrong.output()).isNotZero();
        assertThat(wrong.output()).contains("failed (wrong user or password?)");
        assertThat(anonymous.output()).contains("needs NACOS_USERNAME and NACOS_PASSWORD");
    }

    /**
     * The services' own Nacos user, as docs/operations.md sets it up: it reads every dataId of the group and registers
     * and finds services, and it may write one dataId, the per-SKU settings' (the sale console's); writing the
     * services' own dataIds is refused to it. With that user the console's settings change is published and applied.
     */
    @Test
    void theServicesUserMayWriteThePerSkuSettingsAndNoOtherDataId() {
        NacosAdmin admin = new NacosAdmin(connection().withCredentials(authNacos.nacosUsername(),
                authNacos.nacosPassword()));
        NacosAdmin.ImportRun imported = admin.importFolder(NacosFixture.ROOT);
        assertThat(imported.exitCode()).as(imported.output()).isZero();
        String password = "svc-" + UUID.randomUUID();
        admin.createUser("flashstock-services", password, new java.util.LinkedHashMap<>(Map.of(
                // every group: Nacos checks a client's batch of config listeners against group "*", so a narrower
                // read grant leaves the service without the pushes of its settings
                "public:*:config/*", "r",
                "public:DEFAULT_GROUP:config/inventory-service-skus.yaml", "rw",
                "public:DEFAULT_GROUP:naming/*", "rw")));
        NacosAdmin service = new NacosAdmin(connection().withCredentials("flashstock-services", password));
        // Nacos reloads its roles and permissions every 15 s
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofSeconds(1))
                .until(() -> service.read("inventory-service.yaml").isPresent());

        assertThat(service.publish("inventory-service.yaml", "inventory:\n  admin-token: taken-over-by-the-service\n"))
                .as("the service's own dataId is not its to write").isFalse();
        assertThat(service.publish("order-demo.yaml", "orders: {}\n")).isFalse();
        assertThat(admin.read("inventory-service.yaml")).hasValue(NacosFixture.file("inventory-service.yaml"));

        try (Services services = NacosFixture.start(SharedStack.endpoints(), service.connection(), 1,
                "nacos-auth-it-services-user")) {
            Http http = Http.of(services);
            String sku = "nacos-auth-settings-" + UUID.randomUUID().toString().substring(0, 8);
            assertThat(http.createSku(sku, 50, 5).status()).isEqualTo(201);

            Http.Reply changed = http.skuSettings(services.inventory().url(), sku, "{\"segments\":3}");

            assertThat(changed.status()).as("%s", changed.body()).isEqualTo(202);
            assertThat(admin.read("inventory-service-skus.yaml")).hasValueSatisfying(yaml ->
                    assertThat(yaml).contains("\"[" + sku + "]\": 3"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(http.stock(sku).path("redis").path("segments").asInt()).isEqualTo(3));
        }
    }

    @Test
    void bothServicesStartLoadTheirDataIdsAndFindEachOtherWithAuthOn() {
        NacosAdmin admin = new NacosAdmin(connection().withCredentials(authNacos.nacosUsername(),
                authNacos.nacosPassword()));
        NacosAdmin.ImportRun imported = admin.importFolder(NacosFixture.ROOT);
        assertThat(imported.exitCode()).as(imported.output()).isZero();
        assertThat(admin.read("inventory-service.yaml")).hasValue(NacosFixture.file("inventory-service.yaml"));
        // a limit only Nacos knows: proof that order-demo read its dataId from this server
        assertThat(admin.publish("order-demo.yaml", NacosFixture.file("order-demo.yaml")
                .replace("max-units-per-order: 10", "max-units-per-order: 5"))).isTrue();

        try (Services services = NacosFixture.start(SharedStack.endpoints(), admin.connection(), 1, "nacos-auth-it")) {
            Http http = Http.of(services);
            String sku = "nacos-auth-" + UUID.randomUUID().toString().substring(0, 8);
            http.createSku(sku, 50, 50);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(admin.healthyInstances("inventory-service")).hasSize(1);
                assertThat(admin.healthyInstances("order-demo")).hasSize(1);
            });
            assertThat(http.placeOrder(order("ada", sku, 5)).status()).isEqualTo(201);
            Http.Reply tooMany = http.placeOrder(order("ada", sku, 6));
            assertThat(tooMany.status()).isEqualTo(409);
            assertThat(tooMany.body().path("limit").asInt()).isEqualTo(5);
        }
    }
}
