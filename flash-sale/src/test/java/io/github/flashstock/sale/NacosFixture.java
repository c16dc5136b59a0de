package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flashstock.devstack.Endpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** What the Nacos-mode tests share: the checkout, the jars under test, free ports, service metrics. */
final class NacosFixture {

    static final Path ROOT = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private NacosFixture() {
    }

    /** Services on fresh loopback ports, {@code inventoryInstances} inventory instances, the jars this build made. */
    static Services start(Endpoints stack, NacosConnection nacos, int inventoryInstances, String logFolder) {
        List<Integer> inventoryPorts = new ArrayList<>();
        for (int i = 0; i < inventoryInstances; i++) {
            inventoryPorts.add(freePort());
        }
        Services.Settings settings = Services.Settings.of(ROOT, inventoryPorts.get(0), freePort(),
                        "nacos-it-" + UUID.randomUUID(), ROOT.resolve(".devstack/logs/" + logFolder))
                .withInventoryPorts(inventoryPorts)
                .withNacos(nacos)
                .withJarsFromSystemProperties();
        return Services.start(stack, settings, Duration.ofMinutes(3));
    }

    static String file(String dataId) {
        try {
            return Files.readString(ROOT.resolve("nacos-config").resolve(dataId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The sum of a counter over every series matching the tag ({@code key:value}), read with the admin token; 0 when
     * not registered yet (404).
     */
    static double metric(String serviceUrl, String adminToken, String name, String tag) {
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/actuator/metrics/"
                            + name + (tag == null ? "" : "?tag=" + URLEncoder.encode(tag, StandardCharsets.UTF_8))))
                    .header("Authorization", "Bearer " + adminToken)
                    .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 404) {
                return 0;
            }
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("metric " + name + " of " + serviceUrl + ": " + answer.statusCode()
                        + " " + answer.body());
            }
            JsonNode measurements = JSON.readTree(answer.body()).path("measurements");
            for (JsonNode m : measurements) {
                if (m.path("statistic").asText().equals("COUNT")) {
                    return m.path("value").asDouble();
                }
            }
            return measurements.path(0).path("value").asDouble();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort() {
        return FreePorts.next();
    }
}
