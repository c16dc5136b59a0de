package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Nacos mode chosen by the Spring property alone ({@code --spring.cloud.nacos.server-addr}), no environment variable:
 * the service starts, reads its dataId from Nacos (a value only Nacos has) and registers.
 */
class NacosPropertyStartIT {

    @Test
    void theSpringPropertyAloneSwitchesNacosOn() {
        Endpoints stack = SharedStack.ensure(Component.defaults());
        String group = "PROPERTY_IT_" + UUID.randomUUID().toString().substring(0, 6).toUpperCase();
        NacosAdmin nacos = new NacosAdmin(NacosConnection.of(stack.nacosAddress()).inNamespace("", group));
        assertThat(nacos.publish("order-demo.yaml", NacosFixture.file("order-demo.yaml")
                .replace("max-lines: 20", "max-lines: 7"))).isTrue();
        int port = NacosFixture.freePort();
        BuyerTokens buyers = BuyerTokens.generate();
        Map<String, String> env = new HashMap<>(buyers.orderDemoEnvironment(
                stack.config().dataDir("buyer-tokens").resolve("order-demo-" + port + ".pub.pem")));
        env.putAll(Map.of("ORDERS_DB_URL", stack.jdbcUrl("orders"), "SEATA_ADDRESS", stack.seataAddress(),
                "ORDER_DEMO_PORT", Integer.toString(port), "ORDER_DEMO_ADMIN_TOKEN", "property-it-token-0001"));
        ServiceProcess order = new ServiceProcess("order-demo-property", Path.of(System.getProperty(
                "flashstock.order.jar", Services.Settings.jar(NacosFixture.ROOT, "order-demo").toString())), port,
                List.of("--spring.cloud.nacos.server-addr=" + stack.nacosAddress(),
                        "--spring.cloud.nacos.config.group=" + group, "--spring.cloud.nacos.discovery.group=" + group),
                env, NacosFixture.ROOT.resolve(".devstack/logs/nacos-property-it/order-demo.log"));
        try {
            order.start(Duration.ofMinutes(3));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(nacos.healthyInstances("order-demo")).containsExactly("127.0.0.1:" + port));
            Http http = new Http(order.url(), "http://127.0.0.1:9", "unused", buyers);
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                lines.append(i == 0 ? "" : ",").append("{\"skuId\":\"p-").append(i).append("\",\"quantity\":1}");
            }
            Http.Reply tooManyLines = http.placeOrder("pia", "{\"items\":[" + lines + "]}");
            assertThat(tooManyLines.status()).isEqualTo(409);
            assertThat(tooManyLines.body().path("limit").asInt()).as("the limit only Nacos has").isEqualTo(7);
        } finally {
            order.stop(Duration.ofSeconds(20));
        }
    }
}
