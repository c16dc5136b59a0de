package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.junit.SharedStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees in the Seata console (through the API its pages use) while an order's global transaction
 * is open: names that say which service did what, and the global timeout order-demo is configured with.
 */
class SeataConsoleIT {

    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void anOpenOrderShowsBothServicesByNameInTheConsole() throws Exception {
        Http http = EndToEnd.http();
        String sku = "e2e-console-" + UUID.randomUUID().toString().substring(0, 8);
        http.createSku(sku, 10, 5);
        String console = SharedStack.endpoints().seataConsoleUrl();
        String token = login(console);
        // the coordinator may have been restarted just before (DrillsIT puts its store back when it ends), and the
        // services reconnect only at Seata's next reconnect round (every 10 s): until then an order is answered 503
        // "the transaction coordinator failed" and never reaches its Try. So first an order that commits.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> http.placeOrder(order("lee", sku, 1)).status() == 201);

        // an order held open after its inventory Try, so that its global transaction is still in the TC
        CompletableFuture<Http.Reply> placing = CompletableFuture.supplyAsync(
                () -> http.placeOrder(order("kim", sku, 1), "delay-after-reserve=PT6S"));
        await().atMost(Duration.ofSeconds(20)).until(() -> http.stock(sku).path("redis").path("reserved").asInt() == 1);
        JsonNode session = await().atMost(Duration.ofSeconds(10)).until(() -> sessionHolding(console, token, sku),
                s -> s != null);

        assertThat(session.path("applicationId").asText()).isEqualTo("order-demo");
        assertThat(session.path("transactionServiceGroup").asText()).isEqualTo("flashstock-tx-group");
        assertThat(session.path("transactionName").asText()).isEqualTo("place-order");
        // the timeout the TC holds for it is order-demo's setting (application.yml, 30 s), not Seata's 60 s default
        assertThat(session.path("timeout").asLong()).isEqualTo(30_000L);
        List<String> branches = new ArrayList<>();
        for (JsonNode branch : session.path("branchSessionVOs")) {
            branches.add(branch.path("resourceId").asText() + " by " + branch.path("clientId").asText());
        }
        assertThat(branches).anySatisfy(b -> assertThat(b).startsWith("order-placement by order-demo:"));
        assertThat(branches).anySatisfy(b -> assertThat(b).startsWith("inventory-reservation by inventory-service:"));
        assertThat(placing.get().status()).isEqualTo(201);
    }

    /** The open global session with a branch that reserves this SKU, if the console lists one. */
    private JsonNode sessionHolding(String console, String token, String sku) throws Exception {
        HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(console
                        + "/api/v1/console/globalSession/query?pageNum=1&pageSize=100&withBranch=true"))
                .header("Authorization", token).GET().build(), HttpResponse.BodyHandlers.ofString());
        for (JsonNode session : json.readTree(page.body()).path("data")) {
            for (JsonNode branch : session.path("branchSessionVOs")) {
                // the inventory branch's action context names the SKU of its lines
                if (branch.path("applicationData").asText().contains(sku)) {
                    return session;
                }
            }
        }
        return null;
    }

    private String login(String console) throws Exception {
        String body = "{\"username\":\"" + DevStackConfig.SEATA_CONSOLE_USER + "\",\"password\":\""
                + DevStackConfig.SEATA_CONSOLE_PASSWORD + "\"}";
        HttpResponse<String> login = client.send(HttpRequest.newBuilder(URI.create(console + "/api/v1/auth/login"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode answer = json.readTree(login.body());
        assertThat(answer.path("success").asBoolean()).as(login.body()).isTrue();
        return answer.path("data").asText();
    }
}
