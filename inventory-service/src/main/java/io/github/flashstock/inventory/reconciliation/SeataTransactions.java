package io.github.flashstock.inventory.reconciliation;

import io.github.flashstock.inventory.rebuild.OpenTransactions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import tools.jackson.databind.JsonNode;

/**
 * Asks the Seata TC's console API what it knows of a global transaction: its status while the TC holds it,
 * {@code NOT_FOUND} when it no longer does (finished, or never existed), {@code UNKNOWN} when the console is not
 * configured or not reachable.
 */
@Component
class SeataTransactions implements OpenTransactions {

    private final ReconciliationSettings.SeataConsole console;
    private final RestClient http;

    SeataTransactions(ReconciliationSettings settings, RestClient.Builder builder) {
        this.console = settings.seataConsole();
        this.http = builder.build();
    }

    /** A global session as the TC's console shows it. */
    record GlobalSessionView(String xid, String status, long beginTimeMillis, String applicationId,
                             List<String> branches) {
    }

    /**
     * Every global session the TC holds, oldest first; empty when the console is not configured or not reachable
     * (the reconciler then reports nothing about sessions, rather than guessing).
     */
    List<GlobalSessionView> sessions() {
        return query().orElse(List.of());
    }

    @Override
    public boolean configured() {
        return console != null && console.url() != null && !console.url().isBlank();
    }

    /**
     * The transactions that can still send a phase: every session the TC lists but one that has ended (Committed,
     * Rollbacked, TimeoutRollbacked, Finished) with no branch left. Such a row is bookkeeping only: nothing is left
     * to confirm or cancel. A TC whose database failed while it deleted the row of a rolled-back session leaves it
     * for good (Seata's retry tasks sweep Committed rows, not Rollbacked ones), and a rebuild waiting for it would
     * wait for ever.
     */
    @Override
    public Optional<Set<String>> openXids() {
        return query().map(sessions -> sessions.stream().filter(SeataTransactions::stillOpen)
                .map(GlobalSessionView::xid).collect(Collectors.toSet()));
    }

    /** False only for a session that ended and has no branch left (see {@link #openXids()}). */
    static boolean stillOpen(GlobalSessionView session) {
        boolean ended = switch (session.status()) {
            case "Committed", "Rollbacked", "TimeoutRollbacked", "Finished" -> true;
            default -> false;
        };
        return !ended || !session.branches().isEmpty();
    }

    /** Every global session the TC holds, oldest first; empty when the console cannot be asked. */
    private Optional<List<GlobalSessionView>> query() {
        Optional<String> token = login();
        if (token.isEmpty()) {
            return Optional.empty();
        }
        List<GlobalSessionView> sessions = new ArrayList<>();
        try {
            for (int page = 1; page <= 100; page++) {
                JsonNode answer = http.get()
                        .uri(console.url() + "/api/v1/console/globalSession/query?pageNum={p}&pageSize=100"
                                + "&withBranch=true", page)
                        .header("Authorization", token.get())
                        .retrieve().body(JsonNode.class);
                if (answer == null || !answer.path("success").asBoolean()) {
                    return Optional.empty();
                }
                for (JsonNode s : answer.path("data")) {
                    List<String> branches = new ArrayList<>();
                    for (JsonNode b : s.path("branchSessionVOs")) {
                        branches.add(b.path("resourceId").asText() + " " + branchStatus(b.path("status").asInt(-1))
                                + " at " + b.path("clientId").asText());
                    }
                    sessions.add(new GlobalSessionView(s.path("xid").asText(), globalStatus(s.path("status").asInt(-1)),
                            s.path("beginTime").asLong(), s.path("applicationId").asText(), branches));
                }
                if (answer.path("data").size() < 100) {
                    break;
                }
            }
        } catch (RestClientException e) {
            return Optional.empty();
        }
        sessions.sort(java.util.Comparator.comparingLong(GlobalSessionView::beginTimeMillis));
        return Optional.of(sessions);
    }

    private Optional<String> login() {
        if (console == null || console.url() == null || console.url().isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode login = http.post().uri(console.url() + "/api/v1/auth/login")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(java.util.Map.of("username", console.username(), "password", console.password()))
                    .retrieve().body(JsonNode.class);
            if (login == null || !login.path("success").asBoolean()) {
                return Optional.empty();
            }
            return Optional.of(login.path("data").asText());
        } catch (RestClientException e) {
            return Optional.empty();
        }
    }

    /** Seata's GlobalStatus codes, by name (the console answers with the code). */
    static String globalStatus(int code) {
        return switch (code) {
            case 1 -> "Begin";
            case 2 -> "Committing";
            case 3 -> "CommitRetrying";
            case 4 -> "Rollbacking";
            case 5 -> "RollbackRetrying";
            case 6 -> "TimeoutRollbacking";
            case 7 -> "TimeoutRollbackRetrying";
            case 8 -> "AsyncCommitting";
            case 9 -> "Committed";
            case 10 -> "CommitFailed";
            case 11 -> "Rollbacked";
            case 12 -> "RollbackFailed";
            case 13 -> "TimeoutRollbacked";
            case 14 -> "TimeoutRollbackFailed";
            case 15 -> "Finished";
            case 16 -> "CommitRetryTimeout";
            case 17 -> "RollbackRetryTimeout";
            case 18 -> "Deleting";
            case 19 -> "StopCommitOrCommitRetry";
            case 20 -> "StopRollbackOrRollbackRetry";
            default -> "UnKnown(" + code + ")";
        };
    }

    /** Seata's BranchStatus codes, by name. */
    static String branchStatus(int code) {
        return switch (code) {
            case 1 -> "Registered";
            case 2 -> "PhaseOne_Done";
            case 3 -> "PhaseOne_Failed";
            case 4 -> "PhaseOne_Timeout";
            case 5 -> "PhaseTwo_Committed";
            case 6 -> "PhaseTwo_CommitFailed_Retryable";
            case 7 -> "PhaseTwo_CommitFailed_Unretryable";
            case 8 -> "PhaseTwo_Rollbacked";
            case 9 -> "PhaseTwo_RollbackFailed_Retryable";
            case 10 -> "PhaseTwo_RollbackFailed_Unretryable";
            default -> "Unknown(" + code + ")";
        };
    }

    /** The TC's status of one global transaction by name, {@code NOT_FOUND} or {@code UNKNOWN}. */
    String status(String xid) {
        Optional<String> token = login();
        if (token.isEmpty()) {
            return "UNKNOWN";
        }
        try {
            JsonNode page = http.get()
                    .uri(console.url() + "/api/v1/console/globalSession/query?pageNum=1&pageSize=10&xid={xid}", xid)
                    .header("Authorization", token.get())
                    .retrieve().body(JsonNode.class);
            if (page == null || !page.path("success").asBoolean()) {
                return "UNKNOWN";
            }
            for (JsonNode session : page.path("data")) {
                if (xid.equals(session.path("xid").asText())) {
                    JsonNode status = session.path("status");
                    return status.isInt() || status.asText().matches("[0-9]+") ? globalStatus(status.asInt())
                            : status.asText("UNKNOWN");
                }
            }
            return "NOT_FOUND";
        } catch (RestClientException e) {
            return "UNKNOWN";
        }
    }
}
