package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.SharedStack;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The Seata TC goes away between an order's inventory Try and its global commit. order-demo cannot know the outcome
 * then, so it must not say "rolled back": it answers 202 with status PENDING and where to ask. When the TC is back it
 * finishes the transaction (here: rolls it back once its 30 s timeout has passed), and the order, Redis and MySQL all
 * tell the same final story.
 */
class CoordinatorOutageIT {

    @Test
    void anOrderWhoseCommitMeetsNoCoordinatorIsPendingAndThenTellsTheTruth() throws Exception {
        EndToEnd.services();
        Http http = EndToEnd.http();
        String sku = "e2e-tc-away-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 10, 5);

        // Given an order whose inventory Try succeeded, held before its global commit
        CompletableFuture<Http.Reply> placing = CompletableFuture.supplyAsync(
                () -> http.placeOrder(order("cora", sku, 2), "delay-after-reserve=PT25S"));
        await().atMost(Duration.ofSeconds(20)).until(() -> http.stock(sku).path("redis").path("reserved").asInt() == 2);

        // When the coordinator is down while the order service tries to commit
        AtomicReference<Http.Reply> answered = new AtomicReference<>();
        SharedStack.during(Component.SEATA, () -> {
            assertThat(placing).as("still held before its commit when the TC went away").isNotDone();
            answered.set(placing.join());
        });

        // Then the answer did not guess: accepted, pending, with where to ask (its own database was up)
        Http.Reply answer = answered.get();
        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(202);
        assertThat(answer.body().path("status").asText()).isEqualTo("PENDING");
        String orderId = answer.body().path("orderId").asText();
        assertThat(orderId).isNotEmpty();

        // And once the coordinator has finished the transaction, the order and both stores agree on the outcome
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            String status = http.readOrder("cora", orderId).body().path("status").asText();
            return status.equals("CONFIRMED") || status.equals("CANCELLED");
        });
        String outcome = http.readOrder("cora", orderId).body().path("status").asText();
        int expectedSold = outcome.equals("CONFIRMED") ? 2 : 0;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            JsonNode stock = http.stock(sku);
            assertThat(stock.path("redis").path("reserved").asInt()).isZero();
            assertThat(stock.path("redis").path("sold").asInt()).isEqualTo(expectedSold);
            assertThat(stock.path("mysql").path("sold").asInt()).isEqualTo(expectedSold);
            // the units left are Redis's and the MySQL store's allotment's
            assertThat(stock.path("redis").path("available").asInt()
                    + stock.path("mysql").path("allotment").path("available").asInt()).isEqualTo(10 - expectedSold);
        });
    }
}
