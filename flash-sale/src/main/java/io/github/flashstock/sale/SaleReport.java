package io.github.flashstock.sale;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a flash sale did, and whether the books balance. Every check is computed from what the services answered,
 * never assumed: units sold against units stocked, Redis against MySQL, the units of the confirmed orders against
 * the units sold, and each order's final status against the answer its buyer got.
 */
public record SaleReport(int orders, int confirmed, Map<String, Integer> refusedByReason,
                         Map<String, Integer> errorsByKind, List<SkuResult> skus, int statusMismatches,
                         Duration elapsed, Duration p50, Duration p95, Duration p99, String setup,
                         List<String> duringTheSale) {

    public SaleReport {
        duringTheSale = List.copyOf(duringTheSale);
    }

    /**
     * One SKU after the sale: both stores' counts, the units of its confirmed orders, and the most units one buyer was
     * confirmed, against the SKU's per-user limit (0: none).
     */
    public record SkuResult(String skuId, StockCounts stock, long unitsInConfirmedOrders, long mostByOneBuyer,
                            long limit) {

        /** No buyer was confirmed more than the limit. */
        public boolean limitKept() {
            return limit <= 0 || mostByOneBuyer <= limit;
        }

        public long stocked() {
            return stock.stocked();
        }

        public long oversold() {
            return Math.max(0, Math.max(stock.sold(), stock.redisSold() + stock.allotmentSold()) - stock.stocked());
        }

        /** Both stores tell the same story, every unit is somewhere once, and nothing is left reserved. */
        public boolean storesAgree() {
            return stock.agree() && stock.unaccounted() == 0 && stock.reserved() == 0;
        }

        /** Every sold unit belongs to a confirmed order and every confirmed unit is sold. */
        public boolean unitsAccounted() {
            return unitsInConfirmedOrders == stock.sold();
        }
    }

    public int refused() {
        return refusedByReason.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int errors() {
        return errorsByKind.values().stream().mapToInt(Integer::intValue).sum();
    }

    public long oversold() {
        return skus.stream().mapToLong(SkuResult::oversold).sum();
    }

    public double ordersPerSecond() {
        return orders / Math.max(0.001, elapsed.toNanos() / 1e9);
    }

    /**
     * No unit oversold, the stores agree, every unit accounted for, every order in the state its answer said; false
     * when the sale read nothing back ({@link FlashSale#withoutReadBack()}), as nothing was checked.
     */
    public boolean balanced() {
        return !skus.isEmpty() && oversold() == 0 && statusMismatches == 0
                && skus.stream().allMatch(s -> s.storesAgree() && s.unitsAccounted() && s.limitKept());
    }

    public void print(PrintStream out) {
        out.println();
        out.println("== Flash sale report ==");
        if (!setup.isEmpty()) {
            out.println(setup);
        }
        out.printf("orders placed      %d in %.1f s (%.0f orders/s)%n", orders, elapsed.toMillis() / 1000.0,
                ordersPerSecond());
        out.printf("  confirmed        %d%n", confirmed);
        out.printf("  refused          %d%n", refused());
        refusedByReason.forEach((reason, n) -> out.printf("    %-28s %d%n", reason, n));
        out.printf("  errors           %d%n", errors());
        errorsByKind.forEach((kind, n) -> out.printf("    %-28s %d%n", kind, n));
        out.printf("latency            p50 %d ms, p95 %d ms, p99 %d ms%n", p50.toMillis(), p95.toMillis(),
                p99.toMillis());
        if (!duringTheSale.isEmpty()) {
            out.println("during the sale");
            duringTheSale.forEach(line -> out.println("  " + line));
        }
        out.println();
        if (skus.isEmpty()) {
            out.println("stock and order states: not read back (the caller checks the final state itself)");
            return;
        }
        out.printf("%-22s %8s %8s %8s %12s %8s %10s %9s%n", "SKU", "stocked", "sold", "avail", "by MySQL store",
                "reserved", "in orders", "oversold");
        for (SkuResult s : skus) {
            StockCounts c = s.stock();
            out.printf("%-22s %8d %8d %8d %12d %8d %10d %9d%n", s.skuId(), c.stocked(), c.sold(),
                    c.redisAvailable() + c.allotmentAvailable(), c.allotmentSold(), c.reserved(),
                    s.unitsInConfirmedOrders(), s.oversold());
        }
        out.println();
        out.printf("oversold units: %d (checked: sold <= stocked in Redis and in MySQL)%n", oversold());
        out.printf("Redis vs MySQL: %s%n", skus.stream().allMatch(SkuResult::storesAgree)
                ? "equal (sold by Redis + by the MySQL store = MySQL's sold; every unit in one store once; nothing"
                + " reserved)" : "DIFFERENT");
        out.printf("orders vs stock: %s%n", skus.stream().allMatch(SkuResult::unitsAccounted)
                ? "units of the confirmed orders = units sold" : "DIFFERENT");
        out.printf("purchase limits: %s%n", skus.stream().filter(s -> s.limit() > 0)
                .map(s -> s.skuId() + " " + s.mostByOneBuyer() + " of " + s.limit() + " at most to one buyer"
                        + (s.limitKept() ? "" : " ABOVE THE LIMIT")).reduce((a, b) -> a + "; " + b)
                .orElse("no SKU with a limit"));
        out.printf("order states:   %s%n", statusMismatches == 0
                ? "every confirmed order CONFIRMED, every refused one CANCELLED"
                : statusMismatches + " order(s) not in the state their answer promised");
        out.println(balanced() ? "RESULT: balanced" : "RESULT: NOT balanced");
    }
}
