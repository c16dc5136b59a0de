package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.flashstock.inventory.stock.TriedEvent;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.PessimisticLockingFailureException;

class LedgerFoldTest {

    private final StockLedgerMapper ledger = mock(StockLedgerMapper.class);
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final LedgerFold fold = new LedgerFold(ledger, meters, RetryRegistry.ofDefaults());

    private static StockEventMessage event(String phase, String xid, String reservation, String sku, long units) {
        return new StockEventMessage(phase, xid, reservation, 7, sku, units, "u-" + reservation, "REDIS", 1);
    }

    @SuppressWarnings("unchecked")
    private List<TriedEvent> written() {
        ArgumentCaptor<List<TriedEvent>> rows = ArgumentCaptor.forClass(List.class);
        verify(ledger).insertTriedEvents(rows.capture());
        return rows.getValue();
    }

    private double events(String phase, String result) {
        return meters.counter("inventory.ledger.events", "phase", phase, "result", result).count();
    }

    private DistributionSummary statementRows() {
        return meters.get("inventory.ledger.batch.size").summary();
    }

    @Test
    void theTriesOfABatchAreWrittenWithOneStatementInTheLedgersKeyOrder() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(3);

        int moved = fold.fold(List.of(event("TRIED", "x-2", "o-1", "sku-a", 1), event("TRIED", "x-1", "o-2", "sku-b", 2),
                event("TRIED", "x-1", "o-1", "sku-b", 3), event("TRIED", "x-1", "o-1", "sku-a", 4)));

        assertThat(moved).isEqualTo(3);
        assertThat(written()).containsExactly(
                new TriedEvent("x-1", "o-1", 7, "sku-a", 4, "REDIS", "u-o-1"),
                new TriedEvent("x-1", "o-1", 7, "sku-b", 3, "REDIS", "u-o-1"),
                new TriedEvent("x-1", "o-2", 7, "sku-b", 2, "REDIS", "u-o-2"),
                new TriedEvent("x-2", "o-1", 7, "sku-a", 1, "REDIS", "u-o-1"));
        // the statement wrote 3 of the 4 rows: the fourth existed and was left as it was
        assertThat(events("TRIED", "moved")).isEqualTo(3);
        assertThat(events("TRIED", "unchanged")).isEqualTo(1);
        assertThat(statementRows().count()).isEqualTo(1);
        assertThat(statementRows().totalAmount()).isEqualTo(4);
    }

    @Test
    void aBatchOfDuplicatesChangesNothingAndCountsEveryEventUnchanged() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(0);
        StockEventMessage tried = event("TRIED", "x-1", "o-1", "sku-a", 2);

        assertThat(fold.fold(List.of(tried, tried, tried))).isZero();

        assertThat(written()).hasSize(3);
        assertThat(events("TRIED", "unchanged")).isEqualTo(3);
        assertThat(meters.find("inventory.ledger.events").tag("result", "moved").counters())
                .allSatisfy(c -> assertThat(c.count()).isZero());
    }

    @Test
    void endStatesWriteNothingAndCostNoStatement() {
        fold.fold(List.of(event("CONFIRMED", "x-1", "o-1", "sku-a", 1), event("CANCELLED", "x-1", "o-2", "sku-a", 1),
                event("CONFIRMED", "x-1", "o-3", "sku-a", 1)));

        verifyNoInteractions(ledger);
        assertThat(events("CONFIRMED", "unchanged")).isEqualTo(2);
        assertThat(events("CANCELLED", "unchanged")).isEqualTo(1);
        assertThat(statementRows().count()).isZero();
    }

    @Test
    void onlyTheTriesOfAMixedBatchGoIntoTheStatement() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(1);

        fold.fold(List.of(event("CONFIRMED", "x-1", "o-1", "sku-a", 1), event("TRIED", "x-1", "o-2", "sku-a", 5)));

        assertThat(written()).singleElement().satisfies(row -> assertThat(row.reservationId()).isEqualTo("o-2"));
        assertThat(events("TRIED", "moved")).isEqualTo(1);
        assertThat(events("CONFIRMED", "unchanged")).isEqualTo(1);
    }

    @Test
    void anEmptyBatchCostsNothing() {
        assertThat(fold.fold(List.of())).isZero();

        verifyNoInteractions(ledger);
        assertThat(meters.find("inventory.ledger.events").counters()).isEmpty();
    }

    @Test
    void aFailedStatementCountsNothingAndReachesTheCaller() {
        when(ledger.insertTriedEvents(anyList())).thenThrow(new IllegalStateException("database away"));

        assertThatThrownBy(() -> fold.fold(List.of(event("TRIED", "x-1", "o-1", "sku-a", 1))))
                .hasMessage("database away");
        assertThat(meters.find("inventory.ledger.events").counters()).isEmpty();
        assertThat(statementRows().count()).isZero();
    }

    @Test
    void aStatementThatLostADeadlockRunsAgainHereAndAnyOtherFailureOnce() {
        SQLException deadlock = new SQLException("Deadlock found when trying to get lock", "40001", 1213);
        when(ledger.insertTriedEvents(anyList())).thenThrow(new PessimisticLockingFailureException("insert", deadlock))
                .thenReturn(1);

        assertThat(fold.fold(List.of(event("TRIED", "x-1", "o-1", "sku-a", 1)))).isEqualTo(1);
        verify(ledger, times(2)).insertTriedEvents(anyList());
        assertThat(events("TRIED", "moved")).isEqualTo(1);

        StockLedgerMapper timedOut = mock(StockLedgerMapper.class);
        when(timedOut.insertTriedEvents(anyList())).thenThrow(new CannotAcquireLockException("insert",
                new SQLException("Lock wait timeout exceeded", "40001", 1205)));
        assertThatThrownBy(() -> new LedgerFold(timedOut, meters, RetryRegistry.ofDefaults())
                .fold(List.of(event("TRIED", "x-2", "o-1", "sku-a", 1)))).isInstanceOf(CannotAcquireLockException.class);
        verify(timedOut, times(1)).insertTriedEvents(anyList());
    }

    @Test
    void aTryIsFoldableWithItsRowsKeyAndAPositiveQuantityAnyOtherPhaseAlways() {
        assertThat(LedgerFold.foldable(event("TRIED", "x-1", "o-1", "sku-a", 1))).isTrue();
        assertThat(LedgerFold.foldable(event("CONFIRMED", null, null, null, 0))).isTrue();

        assertThat(LedgerFold.foldable(null)).isFalse();
        assertThat(LedgerFold.foldable(event(null, "x-1", "o-1", "sku-a", 1))).isFalse();
        assertThat(LedgerFold.foldable(event("TRIED", null, "o-1", "sku-a", 1))).isFalse();
        assertThat(LedgerFold.foldable(event("TRIED", "x-1", null, "sku-a", 1))).isFalse();
        assertThat(LedgerFold.foldable(event("TRIED", "x-1", "o-1", null, 1))).isFalse();
        assertThat(LedgerFold.foldable(event("TRIED", "x-1", "o-1", "sku-a", 0))).isFalse();
        assertThat(LedgerFold.foldable(event("TRIED", "x-1", "o-1", "sku-a", 1L + Integer.MAX_VALUE))).isFalse();
    }
}
