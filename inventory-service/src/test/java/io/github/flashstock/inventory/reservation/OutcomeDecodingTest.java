package io.github.flashstock.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Script replies become outcomes, and anything the scripts never send is refused loudly. */
class OutcomeDecodingTest {

    private static final List<StockLine> LINES = List.of(new StockLine("a", 2), new StockLine("b", 3));

    @Test
    void everyTryReplyCodeNamesItsLine() {
        assertThat(TryOutcome.decode(List.of(0L, 0L, 0L, 0L), LINES)).isEqualTo(new TryOutcome.Reserved());
        assertThat(TryOutcome.decode(List.of(1L, 0L, 0L, 0L), LINES)).isEqualTo(new TryOutcome.AlreadyReserved());
        assertThat(TryOutcome.decode(List.of(2L, 2L, 1L, 0L), LINES))
                .isEqualTo(new TryOutcome.InsufficientStock("b", 3, 1));
        assertThat(TryOutcome.decode(List.of(3L, 1L, 5L, 4L), LINES))
                .isEqualTo(new TryOutcome.PurchaseLimitExceeded("a", 2, 5, 4));
        assertThat(TryOutcome.decode(List.of(4L, 1L, 0L, 0L), LINES)).isEqualTo(new TryOutcome.ReservationCancelled("a"));
        assertThat(TryOutcome.decode(List.of(5L, 2L, 0L, 0L), LINES)).isEqualTo(new TryOutcome.UnknownSku("b"));
    }

    @Test
    void refusalsTravelInTryRefusedAndTagsAreTheCodes() {
        TryOutcome refused = TryOutcome.decode(List.of(2L, 2L, 1L, 0L), LINES);

        assertThat(refused).isInstanceOf(TryOutcome.Refusal.class);
        assertThat(new TryRefused((TryOutcome.Refusal) refused)).hasMessageContaining("SKU b")
                .extracting(TryRefused::refusal).isEqualTo(refused);
        assertThat(refused.tag()).isEqualTo("insufficient_stock");
        assertThat(new TryOutcome.Reserved()).isNotInstanceOf(TryOutcome.Refusal.class);
    }

    @Test
    void unknownCodesAndLinesOutOfRangeAreErrorsNotOutcomes() {
        assertThatThrownBy(() -> TryOutcome.decode(List.of(6L, 0L, 0L, 0L), LINES))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> TryOutcome.decode(List.of(-1L, 0L, 0L, 0L), LINES))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> TryOutcome.decode(List.of(2L, 3L, 1L, 0L), LINES))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> TryOutcome.decode(List.of(2L, 0L, 1L, 0L), LINES))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void secondPhaseRepliesDecodeTheSameForConfirmAndCancel() {
        for (String script : List.of("confirm.lua", "cancel.lua")) {
            assertThat(PhaseOutcome.decode(script, List.of(0L, 3L))).isEqualTo(new PhaseOutcome.Applied(3));
            assertThat(PhaseOutcome.decode(script, List.of(1L, 3L))).isEqualTo(new PhaseOutcome.AlreadyApplied(3));
            assertThat(PhaseOutcome.decode(script, List.of(2L, 0L))).isEqualTo(new PhaseOutcome.NoRecord());
            assertThat(PhaseOutcome.decode(script, List.of(3L, 3L))).isEqualTo(new PhaseOutcome.EndedOtherwise(3));
            assertThat(PhaseOutcome.decode(script, List.of(4L, 3L))).isEqualTo(new PhaseOutcome.HeldInMysql(3));
            // FAILED: the script raised an error for this reservation; the phase fails, no outcome
            assertThatThrownBy(() -> PhaseOutcome.decode(script, List.of(5L, 0L)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining(script).hasMessageContaining("failed");
            assertThatThrownBy(() -> PhaseOutcome.decode(script, List.of(10L, 0L)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining(script);
        }
        // the Confirm's own four, for a reservation it finds no record of, or the refusal of
        assertThat(PhaseOutcome.decode("confirm.lua", List.of(6L, 3L))).isEqualTo(new PhaseOutcome.TakenUnrecorded(3));
        assertThat(PhaseOutcome.decode("confirm.lua", List.of(7L, 3L))).isEqualTo(new PhaseOutcome.Oversold(3));
        assertThat(PhaseOutcome.decode("confirm.lua", List.of(8L, 0L))).isEqualTo(new PhaseOutcome.Unrecorded());
        assertThat(PhaseOutcome.decode("confirm.lua", List.of(9L, 0L))).isEqualTo(new PhaseOutcome.Refused());
    }
}
