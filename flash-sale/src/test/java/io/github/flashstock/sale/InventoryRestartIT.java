package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The inventory service dies between a successful Try and its Confirm; the coordinator finishes the job. */
class InventoryRestartIT {

    @Test
    void seataRetriesCompleteTheConfirmAfterInventoryComesBack() throws Exception {
        Services services = EndToEnd.services();
        Http http = EndToEnd.http();
        String sku = "e2e-restart-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 10, 5);

        // Given an order whose inventory Try succeeded, held before its global commit
        CompletableFuture<Http.Reply> placing = CompletableFuture.supplyAsync(
                () -> http.placeOrder(order("henry", sku, 3), "delay-after-reserve=PT8S"));
        await().atMost(Duration.ofSeconds(20)).until(() -> http.stock(sku).path("redis").path("reserved").asInt() == 3);

        // When the inventory service dies (no shutdown hook runs) and the commit is attempted without it
        services.inventory().kill();
        Http.Reply placed = placing.get();
        assertThat(placed.status()).isEqualTo(201);
        services.inventory().start(Duration.ofMinutes(3));

        // Then the coordinator's retries deliver the Confirm to the new process: three units sold, once
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            JsonNode stock = http.stock(sku);
            assertThat(stock.path("redis").path("sold").asInt()).isEqualTo(3);
            assertThat(stock.path("mysql").path("sold").asInt()).isEqualTo(3);
            assertThat(stock.path("redis").path("reserved").asInt()).isZero();
        });
        JsonNode stock = http.stock(sku);
        // the units left are Redis's and the MySQL store's allotment's
        assertThat(stock.path("redis").path("available").asInt()
                + stock.path("mysql").path("allotment").path("available").asInt()).isEqualTo(7);
        assertThat(stock.path("mysql").path("available").asInt()).isEqualTo(7);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                http.readOrder("henry", placed.body().path("orderId").asText()).body().path("status").asText())
                .isEqualTo("CONFIRMED"));
    }
}
