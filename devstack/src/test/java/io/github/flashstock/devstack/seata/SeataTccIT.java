package io.github.flashstock.devstack.seata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot application with the Seata client begins and ends global transactions with one TCC branch on
 * the devstack's TC, and the open transaction is visible through the TC console's API.
 */
@DevStackTest(Component.SEATA)
@SpringBootTest(classes = ProbeApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "seata.enabled=true",
        "seata.application-id=devstack-probe",
        "seata.tx-service-group=devstack-probe-tx-group",
        "seata.service.vgroup-mapping.devstack-probe-tx-group=default",
        "seata.registry.type=file",
        "seata.config.type=file",
        "seata.enable-auto-data-source-proxy=false",
        "seata.client.http.interceptor-enabled=false"})
class SeataTccIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void seata(DynamicPropertyRegistry registry) {
        registry.add("seata.service.grouplist.default", () -> SharedStack.endpoints().seataAddress());
    }

    @Autowired
    ProbeService service;

    @Autowired
    Journal journal;

    @Test
    void commitsATccBranchAndShowsTheOpenTransactionInTheConsole(Endpoints endpoints) {
        String payload = UUID.randomUUID().toString();
        AtomicReference<JsonNode> seen = new AtomicReference<>();

        // When a global transaction runs one TCC Try, and the console is asked about it while it is open
        String xid = service.run(payload, x -> seen.set(consoleSession(endpoints, x)), false);

        // Then the console listed it with its branch and its application
        JsonNode session = seen.get();
        assertThat(session).as("console session for %s", xid).isNotNull();
        assertThat(session.path("xid").asText()).isEqualTo(xid);
        assertThat(session.path("applicationId").asText()).isEqualTo("devstack-probe");
        assertThat(session.path("transactionServiceGroup").asText()).isEqualTo("devstack-probe-tx-group");
        assertThat(session.path("transactionName").asText()).isEqualTo("devstack-probe-tx");
        JsonNode branches = session.path("branchSessionVOs");
        assertThat(branches.size()).as("branches in %s", session).isEqualTo(1);
        assertThat(branches.get(0).path("branchType").asText()).isEqualTo("TCC");
        assertThat(branches.get(0).path("resourceId").asText()).isEqualTo("devstackProbe");

        // And the TC drove the branch's commit, once
        await().atMost(Duration.ofSeconds(30)).until(() -> journal.entries().contains("commit " + xid + " " + payload));
        assertThat(journal.entries()).containsOnlyOnce("prepare " + xid + " " + payload, "commit " + xid + " " + payload)
                .doesNotContain("rollback " + xid + " " + payload);
        // and the finished transaction left the console's list
        await().atMost(Duration.ofSeconds(30)).until(() -> consoleSession(endpoints, xid) == null);
    }

    @Test
    void rollsTheBranchBackWhenTheTransactionFails(Endpoints endpoints) {
        String payload = UUID.randomUUID().toString();
        AtomicReference<String> xid = new AtomicReference<>();

        assertThatThrownBy(() -> service.run(payload, xid::set, true)).hasMessageContaining("failing on purpose");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> journal.entries().contains("rollback " + xid.get() + " " + payload));
        assertThat(journal.entries()).doesNotContain("commit " + xid.get() + " " + payload);
    }

    /** The console's view of one global session (with branches), or null when the TC no longer has it. */
    private static JsonNode consoleSession(Endpoints endpoints, String xid) {
        try {
            HttpResponse<String> login = HTTP.send(HttpRequest.newBuilder(
                                    URI.create(endpoints.seataConsoleUrl() + "/api/v1/auth/login"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"seata\",\"password\":\"seata\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode loginBody = JSON.readTree(login.body());
            assertThat(loginBody.path("success").asBoolean()).as("console login: %s", login.body()).isTrue();
            String token = loginBody.path("data").asText();

            HttpResponse<String> query = HTTP.send(HttpRequest.newBuilder(URI.create(endpoints.seataConsoleUrl()
                                    + "/api/v1/console/globalSession/query?pageNum=1&pageSize=10&withBranch=true&xid="
                                    + URLEncoder.encode(xid, StandardCharsets.UTF_8)))
                            .header("Authorization", token)
                            .GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(query.statusCode()).as("console query: %s", query.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(query.body());
            assertThat(body.path("success").asBoolean()).as("console query: %s", query.body()).isTrue();
            for (JsonNode s : body.path("data")) {
                if (xid.equals(s.path("xid").asText())) {
                    return s;
                }
            }
            return null;
        } catch (Exception e) {
            throw new AssertionError("cannot query the Seata console for " + xid, e);
        }
    }
}
