package io.github.flashstock.inventory.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Asks the Seata TC's console API what it knows of a global transaction: its status while the TC holds it,
 * {@code NOT_FOUND} when it no longer does (finished, or never existed), {@code UNKNOWN} when the console is not
 * configured or not reachable.
 */
@Component
class SeataTransactions {

    private final ReconciliationSettings.SeataConsole console;
    private final RestClient http;

    SeataTransactions(ReconciliationSettings settings, RestClient.Builder builder) {
        this.console = settings.seataConsole();
        this.http = builder.build();
    }

    String status(String xid) {
        if (console == null || console.url() == null || console.url().isBlank()) {
            return "UNKNOWN";
        }
        try {
            JsonNode login = http.post().uri(console.url() + "/api/v1/auth/login")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(java.util.Map.of("username", console.username(), "password", console.password()))
                    .retrieve().body(JsonNode.class);
            if (login == null || !login.path("success").asBoolean()) {
                return "UNKNOWN";
            }
            JsonNode page = http.get()
                    .uri(console.url() + "/api/v1/console/globalSession/query?pageNum=1&pageSize=10&xid={xid}", xid)
                    .header("Authorization", login.path("data").asText())
                    .retrieve().body(JsonNode.class);
            if (page == null || !page.path("success").asBoolean()) {
                return "UNKNOWN";
            }
            for (JsonNode session : page.path("data")) {
                if (xid.equals(session.path("xid").asText())) {
                    return session.path("status").asText("UNKNOWN");
                }
            }
            return "NOT_FOUND";
        } catch (RestClientException e) {
            return "UNKNOWN";
        }
    }
}
