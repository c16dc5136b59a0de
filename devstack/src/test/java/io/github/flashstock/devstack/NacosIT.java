package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.junit.DevStackTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The devstack's Nacos answers the open API a service and an operator use: configs and instances. */
@DevStackTest(Component.NACOS)
class NacosIT {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(Endpoints endpoints, String path, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + endpoints.nacosAddress() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(Endpoints endpoints, String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + endpoints.nacosAddress() + pathAndQuery))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Nacos serves a publish to reads a moment later (eventually consistent): poll, bounded. */
    private HttpResponse<String> awaitGet(Endpoints endpoints, String pathAndQuery, String expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        HttpResponse<String> answer = get(endpoints, pathAndQuery);
        while (!answer.body().contains(expected) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
            answer = get(endpoints, pathAndQuery);
        }
        return answer;
    }

    @Test
    void publishesAndServesAConfig(Endpoints endpoints) throws Exception {
        String dataId = "devstack-it-" + UUID.randomUUID() + ".yaml";
        String content = "answer: 42\nlist: [a, b]\n";

        HttpResponse<String> published = post(endpoints, "/nacos/v1/cs/configs", "dataId=" + dataId
                + "&group=DEFAULT_GROUP&type=yaml&content=" + URLEncoder.encode(content, StandardCharsets.UTF_8));

        assertThat(published.statusCode()).isEqualTo(200);
        assertThat(published.body()).isEqualTo("true");
        HttpResponse<String> read = awaitGet(endpoints, "/nacos/v1/cs/configs?dataId=" + dataId
                + "&group=DEFAULT_GROUP", "answer");
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(content);
    }

    @Test
    void registersAndListsAnInstance(Endpoints endpoints) throws Exception {
        String service = "devstack-it-" + UUID.randomUUID().toString().substring(0, 8);

        HttpResponse<String> registered = post(endpoints, "/nacos/v1/ns/instance",
                "serviceName=" + service + "&ip=127.0.0.1&port=9&ephemeral=false");

        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
        HttpResponse<String> listed = awaitGet(endpoints, "/nacos/v1/ns/instance/list?serviceName=" + service,
                "\"port\":9");
        assertThat(listed.body()).contains("\"ip\":\"127.0.0.1\"").contains("\"port\":9");
    }

    @Test
    void isReadyByItsOwnReadinessCheck(Endpoints endpoints) throws Exception {
        HttpResponse<String> readiness = get(endpoints, "/nacos/v3/admin/core/state/readiness");

        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"ok\"");
    }
}
