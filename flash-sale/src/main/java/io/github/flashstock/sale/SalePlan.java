package io.github.flashstock.sale;

import java.util.List;

/**
 * What a flash sale sells and to how many buyers.
 *
 * @param skus            the SKUs on sale; the first is the hot one every buyer wants
 * @param buyers          orders placed, one per buyer arrival
 * @param distinctUsers   user ids the buyers are drawn from; fewer users than buyers means some come back, and the
 *                        purchase limit meets them
 * @param concurrency     the bounded client pool: orders in flight at once
 * @param twoSkuShare     the share of buyers who also buy the second SKU, in the same order
 * @param seed            makes a run repeatable (who buys what)
 */
public record SalePlan(List<SkuOnSale> skus, int buyers, int distinctUsers, int concurrency, double twoSkuShare,
                       long seed) {

    /** A SKU and how it is stocked. */
    public record SkuOnSale(String skuId, int units, int perUserLimit, int segments) {
    }

    public SalePlan {
        if (skus.isEmpty() || buyers < 1 || distinctUsers < 1 || concurrency < 1) {
            throw new IllegalArgumentException("a sale needs a SKU, buyers, users and at least one client");
        }
        skus = List.copyOf(skus);
    }

    /**
     * The demo's sale: a hot SKU of {@code hotUnits} units, limit 2 per user, and a second SKU of half as many,
     * that one buyer in five adds to the order; {@code buyers} buyers, a fifth of them returning users, 32 at a time.
     */
    public static SalePlan demo(String saleId, int hotUnits, int buyers) {
        return new SalePlan(List.of(
                new SkuOnSale("hot-" + saleId, hotUnits, 2, 1),
                new SkuOnSale("side-" + saleId, Math.max(1, hotUnits / 2), 2, 1)),
                buyers, Math.max(1, buyers * 4 / 5), 32, 0.2, 42);
    }

    /**
     * A warm-up before a sale opens: {@code orders} orders of a SKU of its own ({@code warmup-<saleId>}, stock for
     * all of them, limit 2 per user), users drawn from as many as there are orders, so that some come back and meet
     * the limit; {@code clients} at a time. It takes both services through the paths of an order that commits and
     * of one refused while the JIT, the pools and the lazily built parts of both services warm up, so that the
     * sale's first buyers do not pay for that.
     */
    public static SalePlan warmUp(String saleId, int orders, int clients) {
        return new SalePlan(List.of(new SkuOnSale("warmup-" + saleId, 2L * orders > Integer.MAX_VALUE
                ? Integer.MAX_VALUE : 2 * orders, 2, 1)), orders, orders, clients, 0, 7);
    }

    public SalePlan withConcurrency(int clients) {
        return new SalePlan(skus, buyers, distinctUsers, clients, twoSkuShare, seed);
    }
}
