package io.github.flashstock.sale;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one drill did and what it left behind, every figure read back from the services, the orders database and the
 * coordinator after the system settled (or gave up settling).
 *
 * @param answers         what the buyers were told, by {@code <status> <problem type>} ({@code none io:...}: no answer)
 * @param failedOrders    buyers who did not get their order although it was not refused for stock or limits: a 5xx,
 *                        no answer, or an order cancelled under them three times
 * @param replacedOrders  buyers whose order was cancelled under them (their order-demo instance died between Try
 *                        and commit) and who placed it again with a new key
 * @param improperAnswers answers of a form no buyer should get, true or not: no answer, a 500, a 200, a 503 without
 *                        a problem type or {@code Retry-After} (the first few in {@code improperExamples})
 * @param contradictions  answers the order's final state contradicts (told 201, ended CANCELLED; told it failed,
 *                        ended CONFIRMED), with the first few as examples in {@code contradictionExamples}
 * @param pendingOrders   orders of the drill's SKUs still PENDING when the report was taken
 * @param tcSessionsLeft  global sessions the TC still holds for the drill's orders
 * @param findings        the reconciler's findings on the drill's SKUs (and on old global sessions), and keys of them
 *                        on a Redis the drill's services do not use ({@code STRAY_PARTICIPANT}), one line each
 * @param unmatched       order lines and inventory reservations that tell different stories: a CONFIRMED order whose
 *                        reservation the inventory ledger does not have CONFIRMED for the same units, or a CONFIRMED
 *                        reservation whose order is not CONFIRMED (one line each, the XID and both states)
 * @param missingEvents   stock events the ledger's rows call for that never reached the broker's topic (each
 *                        reservation's TRIED, and its CONFIRMED or CANCELLED once it ended), one line each
 * @param fault           what was done, to which PID, when
 * @param backAfter       from the fault until the server or service answered healthy again
 * @param settledAfter    from the end of the sale until nothing was pending, reserved or held by the TC
 */
public record DrillReport(Drill drill, int orders, Map<String, Integer> answers, int failedOrders,
                          int replacedOrders, int improperAnswers, List<String> improperExamples, int contradictions,
                          List<String> contradictionExamples, List<SkuOutcome> skus, int pendingOrders,
                          int tcSessionsLeft, List<String> findings, List<String> unmatched,
                          List<String> missingEvents, String fault, Duration backAfter,
                          Duration settledAfter, boolean settled) {

    /** The {@link #answers} key of a buyer who found no order-demo instance left to ask. */
    static final String NO_INSTANCE_LEFT_KIND = "none " + FlashSale.NO_INSTANCE_LEFT;

    /** The {@link #answers} key of an answer: its status and problem type, or "none" and why there was no answer. */
    static String kindOf(FlashSale.Answer a) {
        String kind = ((a.status() < 0 ? "none" : Integer.toString(a.status())) + " " + a.problemType()).trim();
        // order-demo's 503 inventory-unavailable names the inventory's own problem when it had one (redis-full, ...)
        java.util.regex.Matcher why = INVENTORY_PROBLEM.matcher(a.body() == null ? "" : a.body());
        return why.find() ? kind + " (" + why.group(1) + ")" : kind;
    }

    private static final java.util.regex.Pattern INVENTORY_PROBLEM =
            java.util.regex.Pattern.compile("\"inventoryProblem\"\\s*:\\s*\"([a-z0-9-]{1,64})\"");

    public DrillReport {
        answers = Map.copyOf(answers);
        contradictionExamples = List.copyOf(contradictionExamples);
        improperExamples = List.copyOf(improperExamples);
        skus = List.copyOf(skus);
        findings = List.copyOf(findings);
        unmatched = List.copyOf(unmatched);
        missingEvents = List.copyOf(missingEvents);
    }

    /**
     * One SKU after the drill: both stores' counts, the units of its CONFIRMED orders, and the buyers who got more
     * than the per-user limit: in one store's sales ({@code overLimitInAStore}: a store broke its own rule, never
     * allowed), and in their CONFIRMED orders ({@code overLimit}, from the orders database: never while Redis can be
     * asked; within the bound of docs/design.md, "One buyer count", and reported, while it cannot); {@code mostByOneBuyer}
     * the most units one buyer got, against {@code limit} (0: none).
     */
    public record SkuOutcome(String skuId, StockCounts stock, long unitsInConfirmedOrders, int overLimitInAStore,
                             int overLimit, long mostByOneBuyer, long limit) {

        public SkuOutcome(String skuId, StockCounts stock, long unitsInConfirmedOrders) {
            this(skuId, stock, unitsInConfirmedOrders, 0, 0, 0, 0);
        }

        public long stocked() {
            return stock.stocked();
        }

        public long oversold() {
            return Math.max(0, Math.max(unitsInConfirmedOrders, Math.max(stock.sold(),
                    stock.redisSold() + stock.allotmentSold())) - stock.stocked());
        }

        /**
         * Units no store accounts for (neither available, reserved nor sold in Redis or the MySQL store, or counted
         * in both), sold units that belong to no CONFIRMED order, and Redis given other units than MySQL says.
         */
        public long lost() {
            return stock.unaccounted() + Math.max(0, stock.sold() - unitsInConfirmedOrders)
                    + (stock.agree() ? 0 : Math.abs(stock.redisSold() + stock.allotmentSold() - stock.sold())
                    + Math.abs(stock.redisStocked() - (stock.stocked() - stock.allotmentAvailable()
                    - stock.allotmentIncoming() - stock.mysqlReserved() - stock.allotmentSold())));
        }

        /** Units still held by open Tries, in either store: 0 once the drill has settled. */
        public long reserved() {
            return stock.reserved();
        }

        /** Redis with the MySQL store, MySQL and the orders table count the same units sold. */
        public boolean agree() {
            return stock.redisSold() + stock.allotmentSold() == stock.sold() && stock.sold() == unitsInConfirmedOrders;
        }
    }

    public long oversold() {
        return skus.stream().mapToLong(SkuOutcome::oversold).sum();
    }

    public long lost() {
        return skus.stream().mapToLong(SkuOutcome::lost).sum();
    }

    public long reserved() {
        return skus.stream().mapToLong(SkuOutcome::reserved).sum();
    }

    public boolean storesAgree() {
        return skus.stream().allMatch(SkuOutcome::agree);
    }

    /** Buyers above the per-user limit in one store, over all SKUs: 0, or a store broke its own rule. */
    public int overLimitInAStore() {
        return skus.stream().mapToInt(SkuOutcome::overLimitInAStore).sum();
    }

    /** Buyers above the per-user limit in their CONFIRMED orders, over all SKUs. */
    public int overLimit() {
        return skus.stream().mapToInt(SkuOutcome::overLimit).sum();
    }

    /**
     * The purchase limit held: no buyer above it; or, in a drill that takes Redis out of reach, every SKU with a buyer
     * above it reported by the reconciler ({@code LIMIT_EXCESS}): no silent excess.
     */
    public boolean limitsKept() {
        if (overLimit() == 0) {
            return true;
        }
        return drill.cutsRedis() && skus.stream().filter(s -> s.overLimit() > 0)
                .allMatch(s -> findings.stream().anyMatch(f -> f.startsWith("LIMIT_EXCESS " + s.skuId() + " ")));
    }

    /** The fault line of a drill whose fault never struck (it threw striking or healing; the sale's events say so). */
    public static final String NOT_STRUCK = "not injected";

    /** The fault struck and was healed: a drill whose fault failed proves nothing, and is not clean. */
    public boolean struck() {
        return !fault.startsWith(NOT_STRUCK);
    }

    /** The reconciler's findings that are a fault here: all but the excess a Redis outage may leave, reported. */
    public List<String> faultFindings() {
        return findings.stream().filter(f -> !(drill.cutsRedis() && f.startsWith("LIMIT_EXCESS "))).toList();
    }

    /**
     * Everything a drill promises: no unit oversold, lost or held, no answer untrue, nothing left behind, no event
     * lost (unless Redis itself lost writes: an event is exactly as durable as the stock it describes).
     */
    public boolean clean() {
        return struck() && settled && oversold() == 0 && lost() == 0 && reserved() == 0 && storesAgree()
                && pendingOrders == 0
                && overLimitInAStore() == 0 && limitsKept()
                && tcSessionsLeft == 0 && faultFindings().isEmpty() && unmatched.isEmpty() && contradictions == 0 && improperAnswers == 0
                && failedOrders <= drill.failedOrdersAllowed(orders)
                && (missingEvents.isEmpty() || drill.losesRedisWrites());
    }

    public void print(PrintStream out) {
        out.println();
        out.println("== Drill " + drill.cliName() + ": " + drill.description() + " ==");
        out.println("fault           " + fault);
        out.printf("back after      %.1f s; settled %s%n", backAfter.toMillis() / 1000.0, settled
                ? String.format("%.1f s after the sale", settledAfter.toMillis() / 1000.0)
                : "NOT within " + settledAfter.toSeconds() + " s");
        out.printf("orders          %d; failed %d%s; placed again after a cancellation %d%n", orders, failedOrders,
                drill.survivable() ? " (a second instance took over: must be 0)"
                        : drill.failedShareAllowed() < 1 ? " (a second TC took over: at most "
                        + drill.failedOrdersAllowed(orders) + ", " + Math.round(drill.failedShareAllowed() * 100)
                        + " % of the sale)" : "", replacedOrders);
        answers.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.printf("  %-40s %d%n", e.getKey(), e.getValue()));
        out.printf("%-26s %8s %8s %8s %8s %8s %10s %9s%n", "SKU", "stocked", "Redis", "MySQL st", "MySQL",
                "orders", "reserved", "oversold");
        for (SkuOutcome s : skus) {
            StockCounts c = s.stock();
            out.printf("%-26s %8d %8d %8d %8d %8d %10d %9d%n", s.skuId(), c.stocked(), c.redisSold(), c.allotmentSold(),
                    c.sold(), s.unitsInConfirmedOrders(), s.reserved(), s.oversold());
        }
        out.printf("oversold %d, lost %d, reserved %d, orders pending %d, TC sessions left %d%n", oversold(), lost(),
                reserved(), pendingOrders, tcSessionsLeft);
        out.println("Redis vs MySQL vs orders: " + (storesAgree() ? "equal" : "DIFFERENT"));
        out.println("purchase limits:          " + (overLimit() == 0 ? "no buyer above the limit"
                : overLimit() + " buyer(s) above the limit in their orders" + (limitsKept()
                ? " (Redis out of reach, each reported: LIMIT_EXCESS)" : ", NOT REPORTED")) + "; "
                + (overLimitInAStore() == 0 ? "kept in each store"
                : overLimitInAStore() + " buyer(s) above it in one store") + "; most units to one buyer: "
                + skus.stream().filter(s -> s.limit() > 0).map(s -> s.skuId() + " " + s.mostByOneBuyer() + " of "
                + s.limit()).reduce((a, b) -> a + ", " + b).orElse("no SKU with a limit"));
        out.println("orders vs reservations:   " + (unmatched.isEmpty() ? "every CONFIRMED order has its units sold"
                : unmatched.size() + " unmatched: " + String.join("; ", unmatched.subList(0,
                        Math.min(5, unmatched.size())))));
        out.println("stock events on topic:    " + (missingEvents.isEmpty() ? "every reservation's, each phase"
                : missingEvents.size() + " missing" + (drill.losesRedisWrites() ? " (lost with Redis's writes)" : "")
                + ": " + String.join("; ", missingEvents.subList(0, Math.min(5, missingEvents.size())))));
        out.println("answers vs final state:   " + (contradictions == 0 ? "every answer true"
                : contradictions + " contradicted: " + String.join("; ", contradictionExamples)));
        int noInstanceLeft = answers.getOrDefault(NO_INSTANCE_LEFT_KIND, 0);
        out.println("form of the answers:      " + (improperAnswers > 0
                ? improperAnswers + " improper: " + String.join("; ", improperExamples)
                : noInstanceLeft == 0 ? "every one a 201, 202, 409 or a 503 problem with Retry-After"
                : "every answer a 201, 202, 409 or a 503 problem with Retry-After; " + noInstanceLeft + " buyer(s)"
                + " found no order-demo instance left to ask, and nothing was sold in their name (failed orders)"));
        out.println("findings:                 " + (findings.isEmpty() ? "none" : String.join("; ", findings)));
        out.println(clean() ? "RESULT: clean" : "RESULT: NOT clean");
    }

    /** One line per drill, for {@code bin/drill all} and the table in docs/failures.md. */
    public static void printTable(List<DrillReport> reports, PrintStream out) {
        out.println();
        out.println("| drill | orders | 201 / 202 / 409 / failed | re-placed | oversold | lost | reserved | pending "
                + "| TC left | findings | untrue / improper answers | back after | settled after | result |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (DrillReport r : reports) {
            out.printf("| %s | %d | %d / %d / %d / %d | %d | %d | %d | %d | %d | %d | %d | %d / %d | %.1f s | %s | %s |%n",
                    r.drill().cliName(), r.orders(), r.count("201"), r.count("202"), r.count("409"), r.failedOrders(),
                    r.replacedOrders(), r.oversold(), r.lost(), r.reserved(), r.pendingOrders(), r.tcSessionsLeft(),
                    r.findings().size(), r.contradictions(), r.improperAnswers(), r.backAfter().toMillis() / 1000.0,
                    r.settled() ? String.format("%.1f s", r.settledAfter().toMillis() / 1000.0) : "not settled",
                    r.clean() ? "clean" : "NOT clean");
        }
    }

    private int count(String status) {
        return answers.entrySet().stream().filter(e -> e.getKey().startsWith(status + " ") || e.getKey().equals(status))
                .mapToInt(Map.Entry::getValue).sum();
    }
}
