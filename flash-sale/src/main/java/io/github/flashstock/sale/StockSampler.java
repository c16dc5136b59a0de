package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, List<Double>> times = new LinkedHashMap<>();
    private final Map<String, List<Double>> units = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stock-sampler");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final long start = System.nanoTime();

    public StockSampler(String inventoryUrl, String adminToken, List<String> skus) {
        skus.forEach(s -> {
            times.put(s, new ArrayList<>());
            units.put(s, new ArrayList<>());
        });
        ticker.scheduleAtFixedRate(() -> skus.forEach(sku -> sample(inventoryUrl, adminToken, sku)), 0, 250,
                TimeUnit.MILLISECONDS);
    }

    private void sample(String inventoryUrl, String adminToken, String sku) {
        try {
            String body = http.send(HttpRequest.newBuilder(URI.create(inventoryUrl + "/skus/" + sku + "/stock"))
                    .header("Authorization", "Bearer " + adminToken).timeout(Duration.ofSeconds(1)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            long available = JSON.readTree(body).path("redis").path("available").asLong(-1);
            if (available >= 0) {
                synchronized (this) {
                    times.get(sku).add((System.nanoTime() - start) / 1e9);
                    units.get(sku).add((double) available);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a missed sample leaves a gap in the line (an exception escaping here would end the sampling)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
