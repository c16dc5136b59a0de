package io.github.flashstock.inventory.events;

import io.github.flashstock.inventory.stock.Deadlocks;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.TriedEvent;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Folds stock events into the MySQL ledger. Only a Try's event writes here: its TRIED row (the Try itself touches
 * only Redis). The CONFIRMED and CANCELLED states are written by the Confirm and Cancel themselves, in the MySQL
 * transaction that moves {@code sku_stock} ({@code SalesRecord}), and must stay theirs: that transaction finds
 * the row's state to know whether the sale is counted yet, and the phase's event may reach this consumer before
 * the phase's MySQL step has run (the script appends it). So their events change nothing here, and a duplicate or
 * late TRIED event finds its row and changes nothing either.
 *
 * <p>Metrics: {@code inventory.ledger.events{phase,result=moved|unchanged}} counts the events, and the summary
 * {@code inventory.ledger.batch.size} the rows of each statement.
 */
@Component
class LedgerFold {

    static final String TRIED = "TRIED";

    /** The ledger's unique key, (xid, reservation, SKU): the order in which a statement writes its rows. */
    private static final Comparator<TriedEvent> KEY_ORDER = Comparator.comparing(TriedEvent::xid)
            .thenComparing(TriedEvent::reservationId).thenComparing(TriedEvent::skuId);

    /** The resilience4j retry that runs the statement again when it lost a deadlock ({@link Deadlocks#retry}). */
    static final String DEADLOCKS = "ledger-consumer-deadlocks";

    private final StockLedgerMapper ledger;
    private final MeterRegistry meters;
    private final DistributionSummary statementRows;
    private final Retry deadlocks;

    LedgerFold(StockLedgerMapper ledger, MeterRegistry meters, RetryRegistry retries) {
        this.deadlocks = Deadlocks.retry(retries, DEADLOCKS);
        this.ledger = ledger;
        this.meters = meters;
        this.statementRows = DistributionSummary.builder("inventory.ledger.batch.size")
                .description("TRIED rows the ledger consumer wrote with one statement").baseUnit("rows")
                .register(meters);
    }

    /**
     * Whether the event can be folded: it names its phase, and a Try's event has its row's key and a quantity the
     * ledger takes (more than 0). An event that cannot be folded is the consumer's to set aside: written with the
     * others, a row the database refuses would fail their statement as well.
     */
    static boolean foldable(StockEventMessage e) {
        if (e == null || e.phase() == null) {
            return false;
        }
        return !TRIED.equals(e.phase()) || e.xid() != null && e.reservationId() != null && e.skuId() != null
                && e.quantity() > 0 && e.quantity() <= Integer.MAX_VALUE;
    }

    /**
     * Writes the TRIED rows of the events with one {@code INSERT IGNORE} in autocommit: one statement, one commit,
     * however many events, and none at all when there is no Try among them. The statement is atomic: when it fails,
     * nothing of the batch was written, and the events can be folded again.
     *
     * <p>While it waits on a row a phase's transaction holds, the statement holds the rows it has written. Rows go in
     * the ledger's key order, so two consumer threads that hold some of the same events (a redelivery) lock them in
     * one order. A group of Confirms or Cancels ({@code SalesGroups}) locks the rows it finds first and then inserts
     * the missing ones, so it can hold a row this statement waits on while it waits on one this statement wrote; the
     * database then rolls one of the two back whole (both keep every unit right). The statement that loses runs again
     * here, at once ({@value #DEADLOCKS}), rather than going back to the broker for a later delivery; a group that
     * loses goes again alone ({@code LedgerBatchIT} runs both at once).
     *
     * @param events foldable events ({@link #foldable})
     * @return rows written: the events that moved the ledger
     */
    int fold(List<StockEventMessage> events) {
        List<TriedEvent> rows = new ArrayList<>(events.size());
        Map<String, Integer> others = new TreeMap<>();
        for (StockEventMessage e : events) {
            if (TRIED.equals(e.phase())) {
                rows.add(new TriedEvent(e.xid(), e.reservationId(), e.branchId(), e.skuId(), e.quantity(),
                        e.store(), e.userId()));
            } else {
                others.merge(e.phase(), 1, Integer::sum);
            }
        }
        int moved = 0;
        if (!rows.isEmpty()) {
            rows.sort(KEY_ORDER);
            moved = deadlocks.executeSupplier(() -> ledger.insertTriedEvents(rows));
            statementRows.record(rows.size());
            count(TRIED, "moved", moved);
            count(TRIED, "unchanged", rows.size() - moved);
        }
        others.forEach((phase, n) -> count(phase, "unchanged", n));
        return moved;
    }

    private void count(String phase, String result, int events) {
        if (events > 0) {
            meters.counter("inventory.ledger.events", "phase", phase, "result", result).increment(events);
        }
    }
}
