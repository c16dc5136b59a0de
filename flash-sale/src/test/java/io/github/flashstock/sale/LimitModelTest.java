package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model {@link LimitHistoryIT} holds the stores to: what it accepts and what it calls untrue. */
class LimitModelTest {

    private static final LimitModel.Answer SOLD = new LimitModel.Answer(201, null, null);
    private static final LimitModel.Answer ROLLED_BACK = new LimitModel.Answer(500, "injected-failure", null);

    private static LimitModel model() {
        LimitModel model = new LimitModel();
        model.add(new LimitModel.Sku("s", 3, 2));
        return model;
    }

    private static LimitModel.Order order(String buyer, int units, boolean commits) {
        return new LimitModel.Order(buyer, Map.of("s", units), commits);
    }

    private static LimitModel.Answer refused(String type) {
        return new LimitModel.Answer(409, type, "s");
    }

    @Test
    void aLimitRefusalIsTrueWhileAnotherOrderOfTheBuyerHeldUnitsItThenGaveBack() {
        LimitModel model = model();
        assertThat(model.apply(List.of(order("ann", 1, true)), List.of(SOLD))).isEmpty();

        assertThat(model.apply(List.of(order("ann", 1, false), order("ann", 1, true)),
                List.of(ROLLED_BACK, refused("purchase-limit-exceeded")))).isEmpty();
    }

    @Test
    void aLimitRefusalNothingHeldExplainsIsUntrue() {
        LimitModel model = model();
        assertThat(model.apply(List.of(order("ann", 1, true)), List.of(SOLD))).isEmpty();

        assertThat(model.apply(List.of(order("ann", 1, true)), List.of(refused("purchase-limit-exceeded"))))
                .singleElement().asString().contains("untrue");
        // another buyer's open order does not count for ann
        assertThat(model.apply(List.of(order("bob", 2, false), order("ann", 1, true)),
                List.of(ROLLED_BACK, refused("purchase-limit-exceeded")))).singleElement().asString()
                .contains("untrue");
    }

    @Test
    void aStockRefusalIsTrueOnlyWhenTooFewUnitsWereLeftAtSomeMoment() {
        LimitModel model = model();
        assertThat(model.apply(List.of(order("bob", 2, false), order("ann", 2, true)),
                List.of(ROLLED_BACK, refused("insufficient-stock")))).isEmpty();
        assertThat(model.apply(List.of(order("ann", 2, true)), List.of(refused("insufficient-stock"))))
                .singleElement().asString().contains("untrue");
    }

    @Test
    void sellingAboveTheLimitOrTheStockOrARolledBackOrderIsWrong() {
        LimitModel model = model();
        assertThat(model.apply(List.of(order("ann", 2, true), order("ann", 2, true)), List.of(SOLD, SOLD)))
                .anySatisfy(w -> assertThat(w).contains("above its limit"))
                .anySatisfy(w -> assertThat(w).contains("oversold"));
        assertThat(model().apply(List.of(order("ann", 1, false)), List.of(SOLD))).singleElement().asString()
                .contains("rolled back, yet answered 201");
    }

    @Test
    void aLoweredLimitLeavesWhatABuyerHoldsAndHoldsNewPurchasesToIt() {
        LimitModel model = new LimitModel();
        model.add(new LimitModel.Sku("s", 10, 3));
        assertThat(model.apply(List.of(order("ann", 3, true)), List.of(SOLD))).isEmpty();

        model.changeLimit("s", 1);

        assertThat(model.apply(List.of(order("bob", 1, true)), List.of(SOLD))).as("ann holds 3 of a limit of 1")
                .isEmpty();
        assertThat(model.apply(List.of(order("ann", 1, true)), List.of(refused("purchase-limit-exceeded"))))
                .isEmpty();
        assertThat(model.apply(List.of(order("ann", 1, true)), List.of(SOLD))).singleElement().asString()
                .contains("above its limit 1");
        model.changeLimit("s", 0);
        assertThat(model.apply(List.of(order("bob", 2, true)), List.of(SOLD))).as("no limit").isEmpty();
    }
}
