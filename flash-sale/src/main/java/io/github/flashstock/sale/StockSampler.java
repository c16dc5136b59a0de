package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads the units available in Redis of some SKUs ({@code GET /skus/{id}/stock}, with the admin token) every 250 ms
 * while a run goes on.
 */
public final class StockSampler implements AutoCloseable {

    private final Map<String, List<Double>> times = new LinkedHashMap<>();
    private final Map<String, List<Double>> units = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stock-sampler");
        t.setDaemon(true);
        return t;
    });
    private final long start = System.nanoTime();

    /** @param inventory an instance's API with the admin token */
    public StockSampler(InventoryApi inventory, List<String> skus) {
        skus.forEach(s -> {
            times.put(s, new ArrayList<>());
            units.put(s, new ArrayList<>());
        });
        InventoryApi quick = inventory.withReadTimeout(Duration.ofSeconds(1));
        ticker.scheduleAtFixedRate(() -> skus.forEach(sku -> sample(quick, sku)), 0, 250, TimeUnit.MILLISECONDS);
    }

    private void sample(InventoryApi inventory, String sku) {
        try {
            InventoryApi.RedisSide redis = inventory.stock(sku).redis();
            if (redis != null) {
                synchronized (this) {
                    times.get(sku).add((System.nanoTime() - start) / 1e9);
                    units.get(sku).add((double) redis.available());
                }
            }
        } catch (RuntimeException e) {
            // a missed sample leaves a gap in the line (an exception escaping here would end the sampling)
        }
    }

    /** Stops sampling; one series per SKU, named as {@code names} says (else by its id), seconds from the start. */
    public synchronized List<Charts.Series> series(Map<String, String> names) {
        close();
        List<Charts.Series> series = new ArrayList<>();
        times.forEach((sku, t) -> series.add(Charts.Series.of(names.getOrDefault(sku, sku), t, units.get(sku))));
        return series;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
