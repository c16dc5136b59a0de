package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The usual production wiring: the Seata TC registers in Nacos and both services find it there
 * ({@code seata.registry.type=nacos}), with no fixed TC address (theirs points nowhere). A second TC of the devstack's
 * (own home, ports {@code flashstock.it.seata-nacos.port}, default 28091, console 1000 below) registers in the shared
 * Nacos; orders commit and roll back through it.
 */
class SeataThroughNacosIT {

    private static DevStack tcStack;
    private static Services services;
    private static Http http;

    @BeforeAll
    static void startATcThatRegistersInNacosAndServicesThatLookItUp() {
        SharedStack.ensure(Component.defaults());
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
        tcStack = new DevStack(DevStackConfig.from(settings));
        tcStack.up(EnumSet.of(Component.SEATA));
        Endpoints endpoints = tcStack.endpoints();
        NacosAdmin nacos = new NacosAdmin(NacosConnection.of(endpoints.nacosAddress())
                .inNamespace("seata-nacos-it-" + UUID.randomUUID().toString().substring(0, 8), "FLASHSTOCK_IT"));
        assertThat(nacos.createNamespace()).isTrue();
        assertThat(nacos.importFolder(NacosFixture.ROOT).exitCode()).isZero();
        services = NacosFixture.start(endpoints, nacos.connection(), 1, "seata-nacos-it");
        http = Http.of(services);
    }

    @AfterAll
    static void stopAll() {
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
    void ordersCommitAndRollBackThroughTheTcFoundInNacos() {
        NacosAdmin seataGroup = new NacosAdmin(NacosConnection.of(tcStack.endpoints().nacosAddress())
                .inNamespace("", "SEATA_GROUP"));
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
}
