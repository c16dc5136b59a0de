package io.github.flashstock.inventory.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeataTransactionsTest {

    private static SeataTransactions.GlobalSessionView session(String status, List<String> branches) {
        return new SeataTransactions.GlobalSessionView("192.0.2.2:18091:1", status, 0, "order-demo", branches);
    }

    @Test
    void anEndedSessionWithNoBranchLeftCanSendNoPhase() {
        for (String ended : List.of("Committed", "Rollbacked", "TimeoutRollbacked", "Finished")) {
            assertThat(SeataTransactions.stillOpen(session(ended, List.of()))).as(ended).isFalse();
        }
    }

    @Test
    void everyOtherSessionIsStillOpen() {
        List<String> branch = List.of("inventory-reservation PhaseOne_Done at inventory-service:127.0.0.1:40000");
        for (String ended : List.of("Committed", "Rollbacked", "TimeoutRollbacked", "Finished")) {
            assertThat(SeataTransactions.stillOpen(session(ended, branch))).as(ended + " with a branch").isTrue();
        }
        for (String open : List.of("Begin", "Committing", "CommitRetrying", "Rollbacking", "RollbackRetrying",
                "TimeoutRollbacking", "TimeoutRollbackRetrying", "CommitFailed", "RollbackFailed",
                "UnKnown(99)")) {
            assertThat(SeataTransactions.stillOpen(session(open, List.of()))).as(open).isTrue();
        }
    }
}
