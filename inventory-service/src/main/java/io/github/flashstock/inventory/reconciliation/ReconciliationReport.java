package io.github.flashstock.inventory.reconciliation;

import java.time.Instant;
import java.util.List;

/** What one reconciliation run checked and found. */
public record ReconciliationReport(String runId, Instant startedAt, Instant finishedAt, int skusChecked,
                                   List<Finding> findings) {
}
