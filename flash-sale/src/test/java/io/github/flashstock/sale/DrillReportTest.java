package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a drill judges answers and stock: each rule shown passing and failing. */
class DrillReportTest {

    private static final FlashSale.Purchase BUYER = new FlashSale.Purchase("u1", Map.of("hot", 1));

    private static FlashSale.Answer answer(int status, String type) {
        return new FlashSale.Answer(BUYER, status, "o-1", type, 1, 1);
    }

    @Test
    void anAnswerIsUntrueOnlyWhenTheFinalStateContradictsIt() {
        assertThat(DrillRunner.untrue(answer(201, ""), "CONFIRMED")).isNull();
        assertThat(DrillRunner.untrue(answer(201, ""), "CANCELLED")).contains("answered 201 but is CANCELLED");
        assertThat(DrillRunner.untrue(answer(201, ""), "ABSENT")).contains("answered 201 but is ABSENT");
        assertThat(DrillRunner.untrue(answer(503, "inventory-unavailable"), "CONFIRMED"))
                .contains("answered 503 inventory-unavailable but is CONFIRMED");
        assertThat(DrillRunner.untrue(answer(409, "insufficient-stock"), "CANCELLED")).isNull();
        assertThat(DrillRunner.untrue(answer(409, "insufficient-stock"), "CONFIRMED")).isNotNull();
        // promises nothing yet
        assertThat(DrillRunner.untrue(answer(202, ""), "CANCELLED")).isNull();
        assertThat(DrillRunner.untrue(answer(503, "order-outcome-unknown"), "CONFIRMED")).isNull();
        // no order id, nothing to compare
        assertThat(DrillRunner.untrue(new FlashSale.Answer(BUYER, -1, null, "io:IOException", 1, 1), null)).isNull();
    }

    /**
     * A SKU of 10 units: Redis given {@code redisStocked} of them, with {@code redisAvailable} available,
     * {@code redisReserved} reserved and {@code redisSold} sold; the MySQL store's reserve, its reserved units and its
     * sales; MySQL's sold; the units of the SKU's CONFIRMED orders.
     */
    private static DrillReport.SkuOutcome outcome(long redisStocked, long redisAvailable, long redisReserved,
                                                  long redisSold, long allotmentAvailable, long mysqlReserved,
                                                  long allotmentSold, long sold, long inOrders) {
        return new DrillReport.SkuOutcome("s", new StockCounts(10, redisStocked, redisAvailable, redisReserved,
                redisSold, sold, mysqlReserved, allotmentAvailable, 0, allotmentSold), inOrders);
    }

    @Test
    void stockIsOversoldLostOrLockedByItsOwnDefinition() {
        DrillReport.SkuOutcome fine = outcome(10, 4, 0, 6, 0, 0, 0, 6, 6);
        assertThat(fine.oversold()).isZero();
        assertThat(fine.lost()).isZero();
        assertThat(fine.agree()).isTrue();
        // Redis sold 5 of its 8, the MySQL store 1 of its 2: every unit somewhere once
        DrillReport.SkuOutcome split = outcome(8, 3, 0, 5, 1, 0, 1, 6, 6);
        assertThat(split.lost()).isZero();
        assertThat(split.agree()).isTrue();

        // orders hold more than was stocked
        assertThat(outcome(10, 0, 0, 10, 0, 0, 0, 10, 12).oversold()).isEqualTo(2);
        // the stores together sold more than was stocked
        assertThat(outcome(8, 0, 0, 8, 0, 0, 3, 11, 11).oversold()).isEqualTo(1);
        // two units neither available nor sold
        assertThat(outcome(10, 2, 0, 6, 0, 0, 0, 6, 6).lost()).isEqualTo(2);
        // a unit in the allotment that Redis was given too
        assertThat(outcome(10, 3, 0, 6, 1, 0, 0, 6, 6).lost()).isPositive();
        // sold in Redis, in no confirmed order
        assertThat(outcome(10, 4, 0, 6, 0, 0, 0, 6, 5).lost()).isEqualTo(1);
        // MySQL sold differs
        assertThat(outcome(10, 4, 0, 6, 0, 0, 0, 5, 6).agree()).isFalse();
        assertThat(outcome(8, 3, 1, 4, 0, 2, 0, 4, 4).reserved()).isEqualTo(3);
    }

    @Test
    void aBuyerAboveTheLimitMakesADrillUncleanUnlessRedisWasCutAndTheReconcilerReportedIt() {
        DrillReport.SkuOutcome fine = outcome(10, 4, 0, 6, 0, 0, 0, 6, 6);
        DrillReport.SkuOutcome above = new DrillReport.SkuOutcome("s", fine.stock(), 6, 0, 1, 3, 2);
        DrillReport.SkuOutcome inAStore = new DrillReport.SkuOutcome("s", fine.stock(), 6, 1, 1, 3, 2);
        List<String> reported = List.of("LIMIT_EXCESS s {limit=2, buyers=1, unitsAboveLimit=1}");

        assertThat(report(Drill.TC_KILL, 0, 0, 0, List.of(), true, above).clean())
                .as("with Redis in reach, one count decides: no buyer above the limit").isFalse();
        assertThat(report(Drill.REDIS_SPLIT, 0, 0, 0, List.of(), true, above).clean())
                .as("above the limit while Redis was cut, and not reported").isFalse();
        assertThat(report(Drill.REDIS_SPLIT, 0, 0, 0, reported, true, above).clean())
                .as("above the limit while Redis was cut, reported: the bound the design states").isTrue();
        assertThat(report(Drill.TC_KILL, 0, 0, 0, reported, true, above).clean()).isFalse();
        assertThat(report(Drill.REDIS_SPLIT, 0, 0, 0, reported, true, inAStore).clean())
                .as("a store broke its own rule").isFalse();
        assertThat(report(Drill.REDIS_SPLIT, 0, 0, 0, List.of(), true, inAStore).overLimit()).isEqualTo(1);
    }

    @Test
    void aDrillIsCleanOnlyWhenEveryFigureIs() {
        DrillReport.SkuOutcome fine = outcome(10, 4, 0, 6, 0, 0, 0, 6, 6);
        assertThat(report(Drill.TC_KILL, 5, 0, 0, List.of(), true, fine).clean())
                .as("failed orders are allowed where no second instance takes over").isTrue();
        assertThat(report(Drill.INVENTORY_KILL_ONE, 1, 0, 0, List.of(), true, fine).clean()).isFalse();
        assertThat(report(Drill.TC_KILL, 0, 1, 0, List.of(), true, fine).clean()).isFalse();
        assertThat(report(Drill.TC_KILL, 0, 0, 1, List.of(), true, fine).clean()).isFalse();
        assertThat(report(Drill.TC_KILL, 0, 0, 0, List.of("OVERDUE_GLOBAL_SESSION"), true, fine).clean()).isFalse();
        assertThat(report(Drill.TC_KILL, 0, 0, 0, List.of(), false, fine).clean()).isFalse();
        assertThat(new DrillReport(Drill.TC_KILL, 10, Map.of("201", 10), 0, 0, 1, List.of("500"), 0, List.of(),
                List.of(fine), 0, 0, List.of(), List.of(), List.of(), "fault", Duration.ZERO, Duration.ZERO, true)
                .clean()).as("an improper answer").isFalse();
        assertThat(report(Drill.TC_KILL, 0, 0, 0, List.of(), true,
                outcome(10, 3, 1, 6, 0, 0, 0, 6, 6)).clean()).isFalse();
        assertThat(new DrillReport(Drill.TC_KILL, 10, Map.of("201", 10), 0, 0, 0, List.of(), 0, List.of(),
                List.of(fine), 0, 0, List.of(), List.of("order o-1 CONFIRMED, reservation CANCELLED"), List.of(),
                "fault", Duration.ZERO, Duration.ZERO, true).clean())
                .as("a CONFIRMED order whose reservation was not sold").isFalse();
        List<String> missing = List.of("TRIED of o-1 on s (xid x)");
        assertThat(new DrillReport(Drill.BROKER_KILL, 10, Map.of("201", 10), 0, 0, 0, List.of(), 0, List.of(),
                List.of(fine), 0, 0, List.of(), List.of(), missing, "fault", Duration.ZERO, Duration.ZERO, true)
                .clean()).as("a stock event that never reached the topic").isFalse();
        assertThat(new DrillReport(Drill.REDIS_AOF_TAIL, 10, Map.of("201", 10), 0, 0, 0, List.of(), 0, List.of(),
                List.of(fine), 0, 0, List.of(), List.of(), missing, "fault", Duration.ZERO, Duration.ZERO, true)
                .clean()).as("events lost with the Redis writes that appended them").isTrue();
    }

    @Test
    void everyLedgerRowCallsForItsTriedEventAndItsEndingsEvent() {
        List<StateReader.LedgerRow> ledger = List.of(new StateReader.LedgerRow("x1", "o-1", "s", 1, "CONFIRMED"),
                new StateReader.LedgerRow("x2", "o-2", "s", 2, "TRIED"),
                new StateReader.LedgerRow("x3", "o-3", "s", 1, "CANCELLED"));
        java.util.Set<String> seen = java.util.Set.of(EventTopic.key("x1", "o-1", "s", "TRIED"),
                EventTopic.key("x1", "o-1", "s", "CONFIRMED"), EventTopic.key("x2", "o-2", "s", "TRIED"),
                EventTopic.key("x3", "o-3", "s", "TRIED"), EventTopic.key("x3", "o-3", "s", "CONFIRMED"));

        assertThat(EventTopic.missing(ledger, seen)).containsExactly("CANCELLED of o-3 on s (xid x3)");
        assertThat(EventTopic.missing(ledger.subList(0, 2), seen)).isEmpty();
    }

    @Test
    void aConfirmedOrderMustHaveItsReservationConfirmedUnderTheSameXid() {
        Map<String, StateReader.OrderRow> orders = Map.of(
                "o-1", new StateReader.OrderRow("CONFIRMED", "x1", Map.of("a", 2, "b", 1)),
                "o-2", new StateReader.OrderRow("CANCELLED", "x2", Map.of("a", 1)));
        List<StateReader.LedgerRow> agreeing = List.of(
                new StateReader.LedgerRow("x1", "o-1", "a", 2, "CONFIRMED"),
                new StateReader.LedgerRow("x1", "o-1", "b", 1, "CONFIRMED"),
                new StateReader.LedgerRow("x2", "o-2", "a", 1, "CANCELLED"));
        assertThat(DrillRunner.unmatched(orders, agreeing)).isEmpty();

        assertThat(DrillRunner.unmatched(orders, List.of(
                new StateReader.LedgerRow("x1", "o-1", "a", 2, "CONFIRMED"),
                new StateReader.LedgerRow("x1", "o-1", "b", 1, "CANCELLED"),
                new StateReader.LedgerRow("x2", "o-2", "a", 1, "CANCELLED"))))
                .singleElement().asString().contains("o-1", "1 x b", "CANCELLED");
        assertThat(DrillRunner.unmatched(orders, List.of(
                new StateReader.LedgerRow("x1", "o-1", "a", 2, "CONFIRMED"),
                new StateReader.LedgerRow("x2", "o-2", "a", 1, "CANCELLED"))))
                .singleElement().asString().contains("absent from the ledger");
        assertThat(DrillRunner.unmatched(orders, List.of(
                new StateReader.LedgerRow("x1", "o-1", "a", 2, "CONFIRMED"),
                new StateReader.LedgerRow("x1", "o-1", "b", 1, "CONFIRMED"),
                new StateReader.LedgerRow("x2", "o-2", "a", 1, "CONFIRMED"))))
                .as("units sold for an order that was cancelled")
                .singleElement().asString().contains("reservation o-2", "order CANCELLED");
        assertThat(DrillRunner.unmatched(orders, List.of(
                new StateReader.LedgerRow("x9", "o-1", "a", 2, "CONFIRMED"),
                new StateReader.LedgerRow("x1", "o-1", "b", 1, "CONFIRMED"))))
                .as("the reservation of another global transaction does not count").hasSize(2);
    }

    @Test
    void anAnswerNoBuyerShouldGetIsImproperEvenWhenTrue() {
        assertThat(DrillRunner.improper(answer(201, ""), "CONFIRMED")).isNull();
        assertThat(DrillRunner.improper(answer(202, ""), "PENDING")).isNull();
        assertThat(DrillRunner.improper(answer(409, "insufficient-stock"), "CANCELLED")).isNull();
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, 503, "o-1", "database-unavailable", 1, 1, true,
                "{}"), "CANCELLED")).isNull();
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, 503, "o-1", "database-unavailable", 1, 1, false,
                "{}"), "CANCELLED")).contains("without Retry-After");
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, 500, null, "", 1, 1, false, "{\"error\":1}"), null))
                .contains("500 without a problem type");
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, 200, null, "", 1, 1, false, ""), null))
                .startsWith("200");
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, -1, "k-1", "io:IOException", 1, 1), "ABSENT"))
                .contains("no answer");
    }

    @Test
    void aBuyerWithNoInstanceLeftIsFailedNotImproperOnlyWhenNothingWasSoldInItsName() {
        FlashSale.Answer noneLeft = new FlashSale.Answer(BUYER, -1, "k-1", FlashSale.NO_INSTANCE_LEFT, 1, 1);
        assertThat(DrillRunner.improper(noneLeft, "ABSENT")).as("never reached the system").isNull();
        assertThat(DrillRunner.improper(noneLeft, "CANCELLED")).as("rolled back after its instance died").isNull();
        assertThat(DrillRunner.failed(noneLeft)).isTrue();
        assertThat(DrillRunner.improper(noneLeft, "CONFIRMED")).as("sold, and the buyer never told")
                .contains("no answer", "k-1 CONFIRMED");
        assertThat(DrillRunner.improper(new FlashSale.Answer(BUYER, -1, "k-2", "io:HttpTimeoutException", 1, 1),
                "ABSENT")).as("an instance took the connection and no answer came").contains("no answer");
    }

    @Test
    void withTwoCoordinatorsAtMostOnePercentOfTheOrdersMayFail() {
        assertThat(Drill.TC_KILL_ONE.failedOrdersAllowed(1500)).isEqualTo(15);
        assertThat(Drill.TC_KILL_ONE.failedOrdersAllowed(200)).isEqualTo(2);
        assertThat(Drill.TC_KILL_ONE.failedOrdersAllowed(99)).isZero();
        assertThat(Drill.INVENTORY_KILL_ONE.failedOrdersAllowed(1500)).as("a second instance: none").isZero();
        assertThat(Drill.TC_KILL.failedOrdersAllowed(1500)).as("the only TC: no bound").isEqualTo(1500);
        assertThat(Drill.TC_KILL_ONE.seataInstances()).isEqualTo(2);
        assertThat(Drill.TC_KILL_DB.seataInstances()).isEqualTo(1);

        DrillReport.SkuOutcome fine = outcome(10, 4, 0, 6, 0, 0, 0, 6, 6);
        assertThat(sale(Drill.TC_KILL_ONE, 1500, 15, fine).clean()).isTrue();
        assertThat(sale(Drill.TC_KILL_ONE, 1500, 16, fine).clean()).isFalse();
        assertThat(sale(Drill.TC_KILL_ONE, 200, 3, fine).clean()).isFalse();
    }

    @Test
    void theReportSaysHowManyBuyersFoundNoInstanceLeftRatherThanThatEveryBuyerGotAnAnswer() {
        DrillReport.SkuOutcome sku = new DrillReport.SkuOutcome("hot", new StockCounts(10, 10, 9, 0, 1, 1, 0, 0, 0,
                0), 1);
        // the keys the runner makes of each answer
        String created = DrillReport.kindOf(new FlashSale.Answer(BUYER, 201, "k-0", "", 1, 1));
        String noneLeft = DrillReport.kindOf(new FlashSale.Answer(BUYER, -1, "k-1", FlashSale.NO_INSTANCE_LEFT, 1, 1));
        assertThat(created).isEqualTo("201");
        DrillReport report = new DrillReport(Drill.CHAOS, 3, Map.of(created, 1, noneLeft, 2), 2, 0, 0, List.of(), 0,
                List.of(), List.of(sku), 0, 0, List.of(), List.of(), List.of(), "chaos", Duration.ZERO,
                Duration.ofSeconds(5), true);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        report.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("2 buyer(s) found no order-demo instance left to ask, and nothing was sold in their name")
                .doesNotContain("every one a 201");
    }

    @Test
    void anAnswerIsCountedByItsStatusTypeAndTheInventorysProblemItNames() {
        assertThat(DrillReport.kindOf(new FlashSale.Answer(BUYER, 503, "o-1", "inventory-unavailable", 1, 1, true,
                "{\"type\":\"urn:flashstock:problem:inventory-unavailable\",\"inventoryProblem\":\"redis-full\"}")))
                .isEqualTo("503 inventory-unavailable (redis-full)");
        assertThat(DrillReport.kindOf(new FlashSale.Answer(BUYER, 503, "o-1", "inventory-unavailable", 1, 1, true,
                "{\"type\":\"urn:flashstock:problem:inventory-unavailable\"}")))
                .isEqualTo("503 inventory-unavailable");
    }

    @Test
    void aDrillWhoseFaultNeverStruckIsNotClean() {
        DrillReport.SkuOutcome fine = outcome(10, 4, 0, 6, 0, 0, 0, 6, 6);
        DrillReport struck = sale(Drill.REDIS_FULL, 10, 0, fine);
        DrillReport missed = new DrillReport(Drill.REDIS_FULL, 10, Map.of("201", 10), 0, 0, 0, List.of(), 0,
                List.of(), List.of(fine), 0, 0, List.of(), List.of(), List.of(), DrillReport.NOT_STRUCK,
                Duration.ZERO, Duration.ofSeconds(1), true);

        assertThat(struck.struck()).isTrue();
        assertThat(struck.clean()).isTrue();
        assertThat(missed.struck()).isFalse();
        assertThat(missed.clean()).isFalse();
    }

    private static DrillReport sale(Drill drill, int orders, int failed, DrillReport.SkuOutcome sku) {
        return new DrillReport(drill, orders, Map.of("201", orders - failed), failed, 0, 0, List.of(), 0, List.of(),
                List.of(sku), 0, 0, List.of(), List.of(), List.of(), "fault", Duration.ofSeconds(1),
                Duration.ofSeconds(1), true);
    }

    private static DrillReport report(Drill drill, int failed, int contradictions, int sessionsLeft,
                                      List<String> findings, boolean settled, DrillReport.SkuOutcome sku) {
        return new DrillReport(drill, 10, Map.of("201", 10), failed, 0, 0, List.of(), contradictions, List.of(),
                List.of(sku), 0,
                sessionsLeft, findings, List.of(), List.of(), "fault", Duration.ofSeconds(1), Duration.ofSeconds(1),
                settled);
    }
}
