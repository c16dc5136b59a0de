package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A configuration change reaches the running order-demo without a restart, through Spring Cloud's refresh (what a
 * Nacos push triggers): the file it imports changes, {@code POST /actuator/refresh} reloads it.
 */
class ConfigRefreshIT {

    @Test
    void aLowerOrderLimitAppliesToTheNextOrderAfterARefresh() throws Exception {
        Http http = EndToEnd.http();
        Path config = EndToEnd.orderConfig();
        String original = Files.readString(config);
        String sku = "e2e-config-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 20, 10);
        assertThat(original).contains("max-units-per-order: 10");
        assertThat(http.placeOrder(order("ivy", sku, 4)).status()).isEqualTo(201);

        try {
            Files.writeString(config, original.replace("max-units-per-order: 10", "max-units-per-order: 3"));
            Http.Reply anonymous = http.refreshOrderConfigAnonymously();
            assertThat(anonymous.status()).as("a refresh needs the admin token").isEqualTo(401);
            assertThat(anonymous.type()).isEqualTo("urn:flashstock:problem:admin-token-required");
            assertThat(http.placeOrder(order("ivan", sku, 4)).status()).as("nothing reloaded").isEqualTo(201);
            Http.Reply refreshed = http.refreshOrderConfig();
            assertThat(refreshed.status()).isEqualTo(200);
            assertThat(refreshed.body().toString()).contains("orders.limits.max-units-per-order");

            Http.Reply refused = http.placeOrder(order("ivy", sku, 4));

            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.type()).isEqualTo("urn:flashstock:problem:order-limit-exceeded");
            assertThat(refused.body().path("limit").asInt()).isEqualTo(3);
            JsonNode redis = http.stock(sku).path("redis");
            assertThat(redis.path("sold").asInt() + redis.path("reserved").asInt()).as("nothing reserved by the refusal")
                    .isEqualTo(8);
        } finally {
            Files.writeString(config, original);
            http.refreshOrderConfig();
        }
        assertThat(http.placeOrder(order("ivy", sku, 4)).status()).isEqualTo(201);
    }
}
