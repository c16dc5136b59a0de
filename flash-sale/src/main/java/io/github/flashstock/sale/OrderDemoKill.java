package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.OrdersApi;
import io.github.flashstock.clients.ServiceProblem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The second order-demo instance kill -9 while three orders on it sit between their inventory Try and their commit
 * (held there by the {@code delay-after-reserve} fault on a SKU of their own), started again after the outage.
 */
final class OrderDemoKill implements Fault {

    private final List<CompletableFuture<Integer>> held = new ArrayList<>();
    private String heldSku;
    private ServiceProcess victim;

    @Override
    public Set<String> prepare(Scene scene) {
        heldSku = "d-held-" + scene.runId();
        scene.services().inventoryApi().createSku(heldSku, new InventoryApi.NewSku(10, 1000, null));
        return Set.of(heldSku);
    }

    @Override
    public Hit inject(Scene scene) {
        victim = scene.services().orders().get(1);
        OrdersApi onVictim = new OrdersApi(victim.url()).withPlaceTimeout(Duration.ofSeconds(90));
        for (int i = 0; i < 3; i++) {
            String buyer = scene.services().buyers().bearer("held-" + i);
            held.add(CompletableFuture.supplyAsync(() -> placeQuietly(onVictim, buyer, heldSku)));
        }
        Instant until = Instant.now().plus(Duration.ofSeconds(20));
        while (scene.state().reserved(heldSku) < 3 && Instant.now().isBefore(until)) {
            ServiceProcess.sleep(Duration.ofMillis(100));
        }
        long pid = victim.pid();
        Instant at = Instant.now();
        victim.kill();
        return new Hit(at, victim.name() + " (PID " + pid + ") killed with " + scene.state().reserved(heldSku)
                + " order(s) on it between Try and commit");
    }

    /** One unit, held after its Try for 60 s: its answer's status, -1 without one. */
    private static int placeQuietly(OrdersApi orders, String buyer, String sku) {
        try {
            return orders.place(buyer, OrdersApi.OrderRequest.of(sku, 1), null, "delay-after-reserve=PT60S")
                    .accepted() ? 202 : 201;
        } catch (ServiceProblem e) {
            return e.status();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public String heal(Scene scene) {
        victim.start(Duration.ofMinutes(3));
        return "";
    }

    /** The held orders' calls, answered or cut off. */
    @Override
    public void afterSale() {
        held.forEach(CompletableFuture::join);
    }
}
