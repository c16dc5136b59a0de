package io.github.flashstock.sale;

import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.OrdersApi;
import io.github.flashstock.clients.ServiceProblem;
import io.github.flashstock.clients.ServiceUnreachable;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs a flash sale against order-demo (orders) and inventory-service (stock and admin), as buyers would: each
 * order is one {@code POST /orders} from a bounded pool of clients, with its buyer's token ({@link BuyerTokens}).
 * Then it reads back every order (as its buyer) and both stores' view of every SKU, and reports.
 */
public final class FlashSale {

    /** How long the stock view may answer 503 (a store coming back, a SKU being rebuilt) before the report gives up. */
    static final Duration STOCK_PATIENCE = Duration.ofSeconds(60);

    private final List<OrdersApi> orders;
    private final AtomicInteger nextOrderUrl = new AtomicInteger();
    private final InventoryApi inventory;
    private final BuyerTokens buyers;
    private final PrintStream progress;

    private final List<MidSale> midSale = new ArrayList<>();
    private String setup = "";
    private List<Answer> lastAnswers = List.of();
    private String lastChart = "";
    private String lastStart = "";
    private boolean readBack = true;
    private boolean charted = false;
    private double perSecond = 0;
    private List<Timed> lastTimed = List.of();

    public FlashSale(String orderUrl, String inventoryUrl, String adminToken, BuyerTokens buyers,
                     PrintStream progress) {
        this(List.of(orderUrl), inventoryUrl, adminToken, buyers, progress);
    }

    /**
     * Buyers spread over several order-demo instances, as a load balancer in front of them would: each order goes
     * to the next instance in turn; when the connection is refused or cut off, the same order (same
     * {@code Idempotency-Key}) goes to the next one.
     */
    public FlashSale(List<String> orderUrls, String inventoryUrl, String adminToken, BuyerTokens buyers,
                     PrintStream progress) {
        if (orderUrls.isEmpty()) {
            throw new IllegalArgumentException("a sale needs at least one order-demo instance");
        }
        this.orders = orderUrls.stream().map(OrdersApi::new).toList();
        this.inventory = new InventoryApi(inventoryUrl, adminToken);
        this.buyers = buyers;
        this.progress = progress;
    }

    /**
     * Something done part-way through the sale (a configuration change, a process killed): it starts, on a thread of
     * its own, once {@code afterAnswers} orders have been answered; the line it returns goes into the report.
     */
    public record MidSale(int afterAnswers, String name, Supplier<String> action) {
    }

    public FlashSale during(MidSale action) {
        midSale.add(action);
        return this;
    }

    /**
     * Skips reading every order and every SKU's stock back right after the sale: for callers (drills) that first wait
     * for the system to settle and then check the final states themselves. Under chaos the instance the stock is read
     * from may be down at the sale's last answer (killed, restarting); the drill reads it once everything is back.
     */
    public FlashSale withoutReadBack() {
        this.readBack = false;
        return this;
    }

    /**
     * Keeps what {@link #lastChart()} and {@link #lastStart()} need: each answer's time, and the stock of every SKU on
     * sale read four times a second while the sale goes on (the demo; the tests leave it off).
     */
    public FlashSale charted() {
        this.charted = true;
        return this;
    }

    /**
     * Buyers arrive at this rate (orders started per second, from the start of the sale) instead of all at once; the
     * clients still bound how many are under way. For long sales (bin/chaos).
     */
    public FlashSale paced(double ordersPerSecond) {
        this.perSecond = ordersPerSecond;
        return this;
    }

    /** An answer and when it came, in nanoseconds from the start of the sale. */
    record Timed(long doneAtNanos, Answer answer) {
    }

    /** Every answer of the last {@link #run} with the time it came. */
    List<Timed> timedAnswers() {
        return lastTimed;
    }

    /** A line at the head of the report: where configuration and discovery came from, how many instances. */
    public FlashSale describedAs(String line) {
        this.setup = line;
        return this;
    }

    /** One buyer's order as planned. */
    public record Purchase(String userId, Map<String, Integer> units) {

        /** What is bought; who buys is the token's ({@link BuyerTokens#bearer}). */
        public OrdersApi.OrderRequest request() {
            return OrdersApi.OrderRequest.of(units);
        }

        /** The {@code POST /orders} body. */
        public String body() {
            return request().json();
        }
    }

    /**
     * What the buyer was told in the end ({@code status} -1: no answer, {@code problemType} then says why), and how
     * many times the order had to be placed: more than once when an earlier placement was cancelled under the buyer
     * (its order-demo instance died between Try and commit).
     */
    record Answer(Purchase purchase, int status, String orderId, String problemType, long nanos, int placements,
                  boolean retryAfter, String body) {

        Answer(Purchase purchase, int status, String orderId, String problemType, long nanos, int placements) {
            this(purchase, status, orderId, problemType, nanos, placements, false, "");
        }
    }

    /**
     * The last {@link #run} as an SVG: orders answered per second and the p99 latency of each second's answers, and
     * the units available in Redis of every SKU on sale, over the sale (empty unless {@link #charted()}).
     */
    public String lastChart() {
        return lastChart;
    }

    /**
     * How the sale began, the part a buyer of a flash sale meets: when the first answer came, when the first tenth of
     * the orders had theirs, and the p99 latency of that first tenth (empty unless {@link #charted()}).
     */
    public String lastStart() {
        return lastStart;
    }

    static String startLine(Collection<long[]> timeline) {
        long[][] byTime = timeline.stream().sorted(java.util.Comparator.comparingLong(t -> t[0]))
                .toArray(long[][]::new);
        if (byTime.length == 0) {
            return "";
        }
        int tenth = Math.max(1, byTime.length / 10);
        long[] firstLatencies = new long[tenth];
        for (int i = 0; i < tenth; i++) {
            firstLatencies[i] = byTime[i][1];
        }
        java.util.Arrays.sort(firstLatencies);
        long p99 = firstLatencies[Math.max(0, (int) Math.ceil(0.99 * tenth) - 1)];
        return String.format("start of the sale: first answer after %.1f s, the first %d answers (a tenth) after %.1f s,"
                        + " their p99 %,d ms", byTime[0][0] / 1e9, tenth, byTime[tenth - 1][0] / 1e9, p99 / 1_000_000);
    }

    private static String chart(SalePlan plan, Collection<long[]> timeline, List<Charts.Series> stock) {
        long[] doneAt = timeline.stream().mapToLong(t -> t[0]).toArray();
        long[] latency = timeline.stream().mapToLong(t -> t[1]).toArray();
        Charts.Series[] perSecond = Charts.perSecond("orders", doneAt, latency);
        return Charts.svg("Flash sale: " + plan.buyers() + " buyers, " + plan.concurrency() + " at a time", List.of(
                new Charts.Panel("orders answered per second", "seconds into the sale", "orders/s",
                        List.of(perSecond[0])),
                new Charts.Panel("p99 latency of the orders answered in each second", "seconds into the sale", "ms",
                        List.of(perSecond[1])),
                new Charts.Panel("units available in Redis", "seconds into the sale", "units", stock)), 2);
    }

    /** Every answer of the last {@link #run}. */
    List<Answer> answers() {
        return lastAnswers;
    }

    public SaleReport run(SalePlan plan) {
        for (SalePlan.SkuOnSale sku : plan.skus()) {
            createSku(sku);
        }
        List<Purchase> purchases = purchases(plan);
        buyers.mintAhead(purchases.stream().map(Purchase::userId).toList());
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        // when each answer came (from the start of the sale) and how long it took: the chart's orders/s and p99
        ConcurrentLinkedQueue<long[]> timeline = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Timed> timed = new ConcurrentLinkedQueue<>();
        StockSampler stock = charted
                ? new StockSampler(inventory, plan.skus().stream().map(SalePlan.SkuOnSale::skuId).toList())
                : null;
        AtomicInteger done = new AtomicInteger();
        AtomicInteger confirmed = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(plan.concurrency());
        Map<Integer, List<MidSale>> due = new TreeMap<>();
        midSale.forEach(m -> due.computeIfAbsent(Math.max(1, m.afterAnswers()), k -> new ArrayList<>()).add(m));
        List<CompletableFuture<String>> happened = new CopyOnWriteArrayList<>();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        ticker.scheduleAtFixedRate(() -> progress.printf("  %5d / %d orders answered, %d confirmed, %.0f orders/s%n",
                        done.get(), purchases.size(), confirmed.get(),
                        done.get() / Math.max(0.001, (System.nanoTime() - start) / 1e9)),
                1, 1, TimeUnit.SECONDS);
        try {
            List<Future<?>> pending = new ArrayList<>();
            for (int i = 0; i < purchases.size(); i++) {
                Purchase purchase = purchases.get(i);
                long startAt = perSecond > 0 ? start + (long) (i * 1e9 / perSecond) : start;
                pending.add(clients.submit(() -> {
                    long wait = startAt - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    Answer answer = place(purchase);
                    answers.add(answer);
                    long doneAt = System.nanoTime() - start;
                    timeline.add(new long[] {doneAt, answer.nanos()});
                    timed.add(new Timed(doneAt, answer));
                    if (answer.status() == 201) {
                        confirmed.incrementAndGet();
                    }
                    int answered = done.incrementAndGet();
                    for (MidSale m : due.getOrDefault(answered, List.of())) {
                        happened.add(CompletableFuture.supplyAsync(() -> {
                            try {
                                return m.name() + ": " + m.action().get();
                            } catch (RuntimeException e) {
                                return m.name() + ": FAILED, " + e.getMessage();
                            }
                        }));
                    }
                    return null;
                }));
            }
            for (Future<?> f : pending) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the sale stopped: " + e.getMessage(), e);
        } finally {
            ticker.shutdownNow();
            if (stock != null) {
                stock.close();
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        lastAnswers = List.copyOf(answers);
        lastTimed = List.copyOf(timed);
        if (stock != null) {
            try {
                lastChart = chart(plan, timeline, stock.series(Map.of()));
            } catch (RuntimeException | Error e) {
                // no fonts, no chart: the report itself does not depend on it
                lastChart = "";
                progress.println("no chart of the sale: " + e);
            }
            lastStart = startLine(timeline);
        }
        List<String> events = new ArrayList<>();
        for (CompletableFuture<String> f : happened) {
            try {
                events.add(f.get(2, TimeUnit.MINUTES));
            } catch (Exception e) {
                events.add("an action during the sale did not finish: " + e.getMessage());
            }
        }
        try {
            return report(plan, List.copyOf(answers), elapsed, clients, events);
        } finally {
            clients.shutdownNow();
        }
    }

    /** The plan's buyers and what each orders, the same for the same seed. */
    public static List<Purchase> purchases(SalePlan plan) {
        Random random = new Random(plan.seed());
        List<Purchase> purchases = new ArrayList<>();
        String hot = plan.skus().get(0).skuId();
        for (int i = 0; i < plan.buyers(); i++) {
            String user = "buyer-" + random.nextInt(plan.distinctUsers());
            Map<String, Integer> units = new TreeMap<>();
            units.put(hot, 1 + random.nextInt(2));
            if (plan.skus().size() > 1 && random.nextDouble() < plan.twoSkuShare()) {
                units.put(plan.skus().get(1 + random.nextInt(plan.skus().size() - 1)).skuId(), 1);
            }
            purchases.add(new Purchase(user, units));
        }
        return purchases;
    }

    private void createSku(SalePlan.SkuOnSale sku) {
        inventory.createSku(sku.skuId(), new InventoryApi.NewSku(sku.units(), sku.perUserLimit(), sku.segments()));
    }

    /**
     * One buyer, as a storefront that follows order-demo's protocol would behave: the order goes out with an
     * {@code Idempotency-Key}; a connection refused or cut off sends the same key to the next instance; a 202
     * (outcome open) is polled until the order is final; an order cancelled under the buyer (never a refusal for
     * stock or limits) is placed again with a new key, at most three placements in all.
     */
    private Answer place(Purchase purchase) {
        long t0 = System.nanoTime();
        Answer answer = null;
        for (int placement = 1; placement <= 3; placement++) {
            answer = placeOnce(purchase, UUID.randomUUID().toString(), t0, placement);
            if (answer.status() == 202) {
                answer = awaitOutcome(answer, t0);
            }
            if (!"order-cancelled".equals(answer.problemType())) {
                return answer;
            }
        }
        return answer;
    }

    /**
     * The problem type of a buyer who found no order-demo instance left to ask: every instance was tried and the last
     * refused the connection (none listening: killed, or still starting). Earlier attempts were refused too, or cut
     * off or timed out by an instance that then died or froze; if one of them got as far as placing the order, the
     * order has the key as its id, which the answer carries.
     */
    static final String NO_INSTANCE_LEFT = "io:no-instance-left";

    private Answer placeOnce(Purchase purchase, String key, long t0, int placement) {
        int first = Math.floorMod(nextOrderUrl.getAndIncrement(), orders.size());
        int attempts = orders.size() + 1;
        for (int attempt = 0; ; attempt++) {
            OrdersApi instance = orders.get((first + attempt) % orders.size());
            try {
                OrdersApi.Placed placed = instance.place(buyers.bearer(purchase.userId()), purchase.request(), key,
                        null);
                return new Answer(purchase, placed.accepted() ? 202 : 201, placed.orderId(), "",
                        System.nanoTime() - t0, placement);
            } catch (ServiceProblem e) {
                String orderId = e.problem().property("orderId");
                return new Answer(purchase, e.status(), orderId.isEmpty() ? null : orderId, e.problem().name(),
                        System.nanoTime() - t0, placement, e.retryAfter().isPresent(),
                        e.status() == 409 ? "" : e.body().substring(0, Math.min(2000, e.body().length())));
            } catch (ServiceUnreachable e) {
                // refused (the instance is not there) or cut off (it died with the order in hand): the next instance
                // takes the same key, and answers with that order if the first one got as far as placing it
                if (attempt + 1 >= attempts) {
                    return new Answer(purchase, -1, key, e.getCause() instanceof java.net.ConnectException
                            ? NO_INSTANCE_LEFT : "io:" + e.getCause().getClass().getSimpleName(),
                            System.nanoTime() - t0, placement);
                }
                if (!(e.getCause() instanceof java.net.ConnectException)) {
                    pause(Duration.ofMillis(200));
                }
            }
        }
    }

    /** Polls an accepted order until it is CONFIRMED (then: 201) or CANCELLED (then: 409 order-cancelled). */
    private Answer awaitOutcome(Answer accepted, long t0) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        int instance = 0;
        while (System.nanoTime() < deadline) {
            pause(Duration.ofMillis(500));
            try {
                String status = orders.get(instance++ % orders.size())
                        .order(buyers.bearer(accepted.purchase().userId()), accepted.orderId()).status();
                if (status.equals("CONFIRMED")) {
                    return new Answer(accepted.purchase(), 201, accepted.orderId(), "", System.nanoTime() - t0,
                            accepted.placements());
                }
                if (status.equals("CANCELLED")) {
                    return new Answer(accepted.purchase(), 409, accepted.orderId(), "order-cancelled",
                            System.nanoTime() - t0, accepted.placements());
                }
            } catch (ServiceProblem | ServiceUnreachable e) {
                // that instance is away or cannot tell yet: the next poll asks another
            }
        }
        return accepted;
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private SaleReport report(SalePlan plan, List<Answer> answers, Duration elapsed, ExecutorService clients,
                              List<String> events) {
        Map<String, Integer> refused = new TreeMap<>();
        Map<String, Integer> errors = new TreeMap<>();
        Map<String, Long> confirmedUnits = new TreeMap<>();
        Map<String, Map<String, Long>> byBuyer = new TreeMap<>();
        int confirmed = 0;
        for (Answer a : answers) {
            if (a.status() == 201) {
                confirmed++;
                a.purchase().units().forEach((sku, n) -> {
                    confirmedUnits.merge(sku, (long) n, Long::sum);
                    byBuyer.computeIfAbsent(sku, k -> new TreeMap<>()).merge(a.purchase().userId(), (long) n,
                            Long::sum);
                });
            } else if (a.status() == 409) {
                refused.merge(a.problemType(), 1, Integer::sum);
            } else {
                errors.merge(a.status() + " " + a.problemType(), 1, Integer::sum);
            }
        }
        int mismatches = readBack ? checkOrderStates(answers, clients) : 0;
        List<SaleReport.SkuResult> skus = new ArrayList<>();
        for (SalePlan.SkuOnSale sku : readBack ? plan.skus() : List.<SalePlan.SkuOnSale>of()) {
            long most = byBuyer.getOrDefault(sku.skuId(), Map.of()).values().stream().mapToLong(Long::longValue).max()
                    .orElse(0);
            skus.add(new SaleReport.SkuResult(sku.skuId(), StockCounts.of(inventory.stock(sku.skuId(), STOCK_PATIENCE)),
                    confirmedUnits.getOrDefault(sku.skuId(), 0L), most, sku.perUserLimit()));
        }
        List<Long> latencies = new ArrayList<>(answers.stream().map(Answer::nanos).toList());
        Collections.sort(latencies);
        return new SaleReport(answers.size(), confirmed, refused, errors, skus, mismatches, elapsed,
                percentile(latencies, 0.50), percentile(latencies, 0.95), percentile(latencies, 0.99), setup, events);
    }

    /** Reads every order back: 201 answers must be CONFIRMED, refusals CANCELLED. Returns how many are not. */
    private int checkOrderStates(List<Answer> answers, ExecutorService clients) {
        AtomicInteger mismatches = new AtomicInteger();
        List<Future<?>> reads = new ArrayList<>();
        for (Answer a : answers) {
            if (a.orderId() == null || (a.status() != 201 && a.status() != 409)) {
                continue;
            }
            String expected = a.status() == 201 ? "CONFIRMED" : "CANCELLED";
            reads.add(clients.submit(() -> {
                String status;
                try {
                    status = orders.get(0).order(buyers.bearer(a.purchase().userId()), a.orderId()).status();
                } catch (ServiceProblem e) {
                    status = Integer.toString(e.status());
                }
                if (!expected.equals(status)) {
                    mismatches.incrementAndGet();
                    progress.printf("order %s: answered %d, but its status is %s%n", a.orderId(), a.status(), status);
                }
            }));
        }
        for (Future<?> f : reads) {
            try {
                f.get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the orders back: " + e.getMessage(), e);
            }
        }
        return mismatches.get();
    }

    static Duration percentile(List<Long> sortedNanos, double p) {
        if (sortedNanos.isEmpty()) {
            return Duration.ZERO;
        }
        int index = (int) Math.ceil(p * sortedNanos.size()) - 1;
        return Duration.ofNanos(sortedNanos.get(Math.max(0, Math.min(sortedNanos.size() - 1, index))));
    }
}
