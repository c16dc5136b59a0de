package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Orders of a sold-out SKU are refused without a global transaction (order-demo's sold-out check) and tell the same
 * truth as a refused Try: insufficient stock, the units there are, the order CANCELLED. Units that come back sell to
 * the next order. Both services and the TC are real.
 */
class SoldOutOrdersIT {

    private final Http http = EndToEnd.http();

    @Test
    void ordersOfASoldOutSkuAreRefusedWithoutAGlobalTransactionUntilUnitsComeBack() throws Exception {
        // under 10 units, so the SKU's allotment (10 % by default) holds none: Redis alone can tell
        String sku = "so-" + UUID.randomUUID().toString().substring(0, 12);
        assertThat(http.createSku(sku, 2, 5).status()).isEqualTo(201);
        assertThat(http.placeOrder(order("u-1", sku, 2)).status()).isEqualTo(201);

        // the first refusal is the Try's, in a global transaction of its own
        Http.Reply first = http.placeOrder(order("u-2", sku, 1));
        assertThat(first.status()).isEqualTo(409);
        assertThat(OrdersTable.xid(first.body().path("orderId").asText())).isPresent();

        // then 24 buyers at once: the same answer, without a transaction, and no Try reaches the inventory
        double before = http.orderMetric("orders.refused-before-transaction");
        double earlyInInventory = http.inventoryMetric("inventory.reservations.refused-early");
        ExecutorService pool = Executors.newFixedThreadPool(12);
        List<Future<Http.Reply>> answers = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String user = "late-" + i;
            answers.add(pool.submit(() -> http.placeOrder(order(user, sku, 1))));
        }
        for (int i = 0; i < answers.size(); i++) {
            Http.Reply refused = answers.get(i).get(60, TimeUnit.SECONDS);
            assertThat(refused.status()).as("%s", refused.body()).isEqualTo(409);
            assertThat(refused.type()).isEqualTo("urn:flashstock:problem:insufficient-stock");
            assertThat(refused.body().path("skuId").asText()).isEqualTo(sku);
            assertThat(refused.body().path("requested").asInt()).isEqualTo(1);
            assertThat(refused.body().path("available").asInt()).isZero();
            String orderId = refused.body().path("orderId").asText();
            Http.Reply recorded = http.readOrder("late-" + i, orderId);
            assertThat(recorded.body().path("status").asText()).isEqualTo("CANCELLED");
            assertThat(OrdersTable.xid(orderId)).as("no global transaction for %s", orderId).isEmpty();
            assertThat(recorded.body().path("items").path(0).path("skuId").asText()).isEqualTo(sku);
        }
        pool.shutdown();
        assertThat(http.orderMetric("orders.refused-before-transaction") - before).isEqualTo(24);
        assertThat(http.inventoryMetric("inventory.reservations.refused-early")).isEqualTo(earlyInInventory);

        // a unit that comes back sells to the very next order: the check reads the stock fresh every time
        assertThat(http.restock(sku, 1).status()).isEqualTo(200);
        Http.Reply placed = http.placeOrder(order("after-restock", sku, 1));
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        assertThat(http.placeOrder(order("after-that", sku, 1)).status()).isEqualTo(409);

        var stock = http.stock(sku);
        assertThat(stock.path("redis").path("stocked").asInt()).isEqualTo(3);
        assertThat(stock.path("redis").path("sold").asInt()).isEqualTo(3);
        assertThat(stock.path("redis").path("available").asInt()).isZero();
        assertThat(stock.path("redis").path("reserved").asInt()).isZero();
    }
}
