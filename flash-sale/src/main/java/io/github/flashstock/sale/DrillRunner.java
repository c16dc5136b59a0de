package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.OrdersApi;
import io.github.flashstock.clients.ServiceHttp;
import io.github.flashstock.clients.ServiceProblem;
import io.github.flashstock.clients.ServiceUnreachable;
import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.TcpProxy;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@link Drill}s: a sale through order-demo, one fault part-way, recovery, then waits until the system has
 * settled (no order pending, no unit reserved, no global session left for the drill's orders) and reads back what
 * every buyer was told, the orders table, both stores, the coordinator and the reconciler.
 * <p>
 * The services (two inventory-service and two order-demo instances, order-demo with its {@code faults} profile) are
 * started once and reused; a drill that needs fewer stops the rest (SIGTERM) for its sale and the next drill starts
 * them again.
 */
public final class DrillRunner implements AutoCloseable {

    /** How long the system may take to settle after the sale: the order timeout (30 s) and the TC's retries. */
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(150);

    private final DevStack configured;
    private DevStack current;
    private final Services services;
    private final PrintStream out;
    private EventTopic events;
    /** Between the second inventory instance and Redis in the split drill; made on first use. */
    private TcpProxy redisProxy;

    public DrillRunner(DevStack stack, Services services, PrintStream out) {
        if (services.inventories().size() < 2 || services.orders().size() < 2) {
            throw new IllegalArgumentException("drills need two inventory-service and two order-demo instances");
        }
        this.configured = stack;
        this.current = stack;
        this.services = services;
        this.out = out;
    }

    /** Runs one drill with a sale of {@code buyers} buyers, {@code clients} at a time. */
    public DrillReport run(Drill drill, int buyers, int clients) {
        out.println();
        out.println("-- drill " + drill.cliName() + ": " + drill.description());
        prepare(drill);
        if (events == null) {
            events = new EventTopic(current.endpoints().namesrvAddress());
        }
        String id = drill.cliName() + "-" + UUID.randomUUID().toString().substring(0, 6);
        // stock for about two thirds of the buyers (1.5 units an order), so the fault meets a sale still selling
        int hotUnits = Math.max(10, buyers);
        SalePlan plan = new SalePlan(List.of(
                new SalePlan.SkuOnSale("d-" + id, hotUnits, 2, 1),
                new SalePlan.SkuOnSale("d2-" + id, Math.max(5, buyers / 4), 2, 1)),
                buyers, Math.max(1, buyers * 4 / 5), clients, 0.2, 7);
        List<String> orderUrls = services.orders().subList(0, drill.orderInstances()).stream()
                .map(ServiceProcess::url).toList();
        Set<String> skuIds = new HashSet<>(plan.skus().stream().map(SalePlan.SkuOnSale::skuId).toList());
        String heldSku = "d-held-" + id;
        List<CompletableFuture<Integer>> held = new ArrayList<>();
        if (drill == Drill.ORDER_KILL) {
            skuIds.add(heldSku);
        }
        boolean awaitEvents = !drill.losesRedisWrites();
        AtomicReference<String> fault = new AtomicReference<>("not injected");
        AtomicReference<Duration> back = new AtomicReference<>(Duration.ZERO);
        FlashSale sale = new FlashSale(orderUrls, services.inventory().url(), services.adminToken(), services.buyers(),
                out)
                .withoutReadBack()
                .during(new FlashSale.MidSale(Math.max(1, buyers / 5), "fault", () -> {
                    String line = inject(drill, plan.skus().get(0).skuId(), heldSku, held, back);
                    fault.set(line);
                    return line;
                }));
        if (drill == Drill.ORDER_KILL) {
            createSku(heldSku, 10);
        }
        sale.run(plan);
        Instant saleEnded = Instant.now();
        held.forEach(CompletableFuture::join);

        // settle: nothing pending, nothing reserved, nothing left at the coordinator for these orders
        boolean settled = false;
        Instant deadline = saleEnded.plus(SETTLE_LIMIT);
        Instant nextNote = saleEnded.plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            String waitingFor = waitingFor(skuIds, awaitEvents);
            if (waitingFor.isEmpty()) {
                settled = true;
                break;
            }
            if (Instant.now().isAfter(nextNote)) {
                out.println("  settling: waiting for " + waitingFor);
                nextNote = Instant.now().plus(Duration.ofSeconds(10));
            }
            ServiceProcess.sleep(Duration.ofSeconds(1));
        }
        Duration settledAfter = Duration.between(saleEnded, Instant.now());

        Map<String, OrderRow> orders = orders(skuIds);
        Map<String, Integer> answers = new TreeMap<>();
        int failed = 0;
        int replaced = 0;
        int improper = 0;
        List<String> improperExamples = new ArrayList<>();
        int contradictions = 0;
        List<String> examples = new ArrayList<>();
        for (FlashSale.Answer a : sale.answers()) {
            String kind = a.status() < 0 ? "none " + a.problemType() : a.status() + " " + a.problemType();
            answers.merge(kind.trim(), 1, Integer::sum);
            if ((a.status() != 201 && a.status() != 202 && a.status() != 409)
                    || a.problemType().equals("order-cancelled")) {
                failed++;
            }
            if (a.placements() > 1) {
                replaced++;
            }
            String wrong = improper(a);
            if (wrong != null) {
                improper++;
                if (improperExamples.size() < 3) {
                    improperExamples.add(wrong);
                }
            }
            String finalState = a.orderId() == null ? null
                    : orders.containsKey(a.orderId()) ? orders.get(a.orderId()).status() : "ABSENT";
            String untrue = untrue(a, finalState);
            if (untrue != null) {
                contradictions++;
                if (examples.size() < 3) {
                    examples.add(untrue);
                }
            }
        }
        int pending = (int) orders.values().stream().filter(o -> o.status().equals("PENDING")).count();
        Set<String> xids = new HashSet<>();
        orders.values().forEach(o -> xids.add(o.xid()));
        int sessionsLeft = tcSessions(xids);
        List<DrillReport.SkuOutcome> outcomes = new ArrayList<>();
        Map<String, List<long[]>> bought = boughtByBuyer(skuIds);
        for (String sku : skuIds.stream().sorted().toList()) {
            outcomes.add(outcome(sku, orders, bought.getOrDefault(sku, List.of())));
        }
        List<String> findings = findings(skuIds, xids);
        List<LedgerRow> ledger = ledger(skuIds);
        List<String> unmatched = unmatched(orders, ledger);
        DrillReport report = new DrillReport(drill, sale.answers().size(), answers, failed, replaced, improper,
                improperExamples, contradictions, examples,
                outcomes, pending, sessionsLeft, findings, unmatched, events.missing(ledger), fault.get(), back.get(), settledAfter, settled);
        report.print(out);
        return report;
    }

    /**
     * What would make this answer untrue, given the order's final state; null when it is true. An order told 201 must
     * be CONFIRMED; one refused (409) or told it failed must not be; 202 and "outcome unknown" promise nothing yet.
     */
    static String untrue(FlashSale.Answer a, String finalState) {
        if (finalState == null) {
            return null;
        }
        boolean confirmed = finalState.equals("CONFIRMED");
        if (a.status() == 201 && !confirmed) {
            return "order " + a.orderId() + " answered 201 but is " + finalState;
        }
        if (a.status() == 202 || a.problemType().equals("order-outcome-unknown")) {
            return null;
        }
        if (a.status() >= 400 && confirmed) {
            return "order " + a.orderId() + " answered " + a.status() + " " + a.problemType() + " but is CONFIRMED";
        }
        return null;
    }

    /**
     * What is wrong with the form of this answer, whatever happened to the order; null when nothing. A buyer gets a
     * sale (201), an open outcome to poll (202), a refusal (409), or a 503 problem with {@code Retry-After}; no
     * answer at all, a 500, a 200 or any other status is a defect even when it happens to be true.
     */
    static String improper(FlashSale.Answer a) {
        if (a.status() == 201 || a.status() == 202 || a.status() == 409) {
            return null;
        }
        if (a.status() == 503 && !a.problemType().isEmpty() && a.retryAfter()) {
            return null;
        }
        if (a.status() < 0) {
            return "no answer (" + a.problemType() + ")";
        }
        return a.status() + " " + (a.problemType().isEmpty() ? "without a problem type" : a.problemType())
                + (a.status() == 503 && !a.retryAfter() ? " without Retry-After" : "") + ": " + a.body();
    }

    // ---- shape and faults ---------------------------------------------------------------------------------

    /** The TC in the drill's store, every server up, exactly the drill's instances running and answering. */
    private void prepare(Drill drill) {
        String store = drill.seataStore().orElse(configured.config().seataStore());
        if (!store.equals(current.config().seataStore())) {
            current.stop(Component.SEATA);
            current = store.equals(configured.config().seataStore()) ? configured
                    : new DevStack(configured.config().withSeataStore(store));
        }
        current.up(Component.defaults());
        List<String> redis = List.of();
        if (drill.onCluster()) {
            current.up(EnumSet.of(Component.REDIS_CLUSTER));
            // every Try on a replica before it is answered: the setting a failover needs (docs/design.md);
            // -Ddrill.cluster-durability=none shows the same drill without it
            redis = List.of("--spring.data.redis.cluster.nodes="
                    + String.join(",", current.endpoints().redisClusterNodes()),
                    "--inventory.durability=" + System.getProperty("drill.cluster-durability", "replica"));
        }
        for (int i = 0; i < services.inventories().size(); i++) {
            ServiceProcess inventory = services.inventories().get(i);
            List<String> args = redis;
            if (drill == Drill.REDIS_SPLIT && i == 1) {
                // the second instance reaches Redis only through the proxy the drill cuts
                args = List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisProxy().port());
            }
            if (inventory.useExtraArgs(args) && inventory.pid() >= 0) {
                inventory.stop(Duration.ofSeconds(20));
            }
        }
        List<ServiceProcess> wanted = new ArrayList<>(services.inventories().subList(0, drill.inventoryInstances()));
        wanted.addAll(services.orders().subList(0, drill.orderInstances()));
        List<ServiceProcess> all = new ArrayList<>(services.inventories());
        all.addAll(services.orders());
        for (ServiceProcess p : all) {
            if (!wanted.contains(p)) {
                p.stop(Duration.ofSeconds(20));
            } else if (p.pid() < 0) {
                p.launch();
            }
        }
        for (ServiceProcess p : wanted) {
            p.awaitReady(Duration.ofMinutes(3));
        }
        // one order through each instance buyers reach, so that every path (and the TC) is known to work
        String warmUp = "d-warm-" + UUID.randomUUID().toString().substring(0, 6);
        createSku(warmUp, 1000);
        for (ServiceProcess order : services.orders().subList(0, drill.orderInstances())) {
            OrdersApi orders = new OrdersApi(order.url()).withPlaceTimeout(Duration.ofSeconds(90));
            Instant until = Instant.now().plus(Duration.ofSeconds(90));
            int status = 0;
            while (status != 201 && Instant.now().isBefore(until)) {
                try {
                    status = orders.place(services.buyers().bearer("warm"), OrdersApi.OrderRequest.of(warmUp, 1))
                            .accepted() ? 202 : 201;
                } catch (ServiceProblem e) {
                    status = e.status();
                }
                if (status != 201) {
                    ServiceProcess.sleep(Duration.ofSeconds(1));
                }
            }
            if (status != 201) {
                throw new IllegalStateException(order.name() + " places no order before the drill (last answer "
                        + status + "); see " + order.log());
            }
        }
    }

    private String inject(Drill drill, String hotSku, String heldSku, List<CompletableFuture<Integer>> held,
                          AtomicReference<Duration> back) {
        Instant at;
        String what;
        switch (drill) {
            case INVENTORY_KILL_ONE, INVENTORY_KILL_ONLY -> {
                ServiceProcess victim = services.inventories().get(0);
                long pid = victim.pid();
                at = Instant.now();
                victim.kill();
                what = victim.name() + " (PID " + pid + ") killed";
                ServiceProcess.sleep(drill.outage());
                victim.start(Duration.ofMinutes(3));
            }
            case ORDER_KILL -> {
                ServiceProcess victim = services.orders().get(1);
                OrdersApi onVictim = new OrdersApi(victim.url()).withPlaceTimeout(Duration.ofSeconds(90));
                // three orders on it that will sit between their inventory Try and their commit when it dies
                for (int i = 0; i < 3; i++) {
                    String buyer = services.buyers().bearer("held-" + i);
                    held.add(CompletableFuture.supplyAsync(() -> placeQuietly(onVictim, buyer,
                            OrdersApi.OrderRequest.of(heldSku, 1), "delay-after-reserve=PT60S")));
                }
                Instant until = Instant.now().plus(Duration.ofSeconds(20));
                while (reserved(heldSku) < 3 && Instant.now().isBefore(until)) {
                    ServiceProcess.sleep(Duration.ofMillis(100));
                }
                long pid = victim.pid();
                at = Instant.now();
                victim.kill();
                what = victim.name() + " (PID " + pid + ") killed with " + reserved(heldSku)
                        + " order(s) on it between Try and commit";
                ServiceProcess.sleep(drill.outage());
                victim.start(Duration.ofMinutes(3));
            }
            case REDIS_SPLIT -> {
                ServiceProcess cut = services.inventories().get(1);
                at = Instant.now();
                redisProxy().cut();
                what = cut.name() + " cut off from Redis (the TCP proxy between them closed) for "
                        + drill.outage().toSeconds() + " s, " + services.inventories().get(0).name()
                        + " still reaching it";
                ServiceProcess.sleep(drill.outage());
                redisProxy().restore();
            }
            case REDIS_FREEZE -> {
                at = Instant.now();
                List<Long> pids = current.pause(Component.REDIS);
                what = "Redis (PID " + pids + ") frozen for " + drill.outage().toSeconds() + " s";
                ServiceProcess.sleep(drill.outage());
                current.resume(Component.REDIS);
            }
            case MARIADB_PAUSE -> {
                at = Instant.now();
                List<Long> pids = current.pause(Component.MARIADB);
                what = "MariaDB (PID " + pids + ") paused for " + drill.outage().toSeconds() + " s";
                ServiceProcess.sleep(drill.outage());
                current.resume(Component.MARIADB);
            }
            case REDIS_AOF_TAIL -> {
                // the AOF's size over the last second and a half, to know where the last second of writes begins
                Path aof = current.redisAppendFile();
                TreeMap<Instant, Long> sizes = new TreeMap<>();
                Instant sampleUntil = Instant.now().plus(Duration.ofMillis(1500));
                while (Instant.now().isBefore(sampleUntil)) {
                    sizes.put(Instant.now(), size(aof));
                    ServiceProcess.sleep(Duration.ofMillis(20));
                }
                at = Instant.now();
                List<Long> pids = current.kill(Component.REDIS);
                long cutTo = sizes.floorEntry(at.minusSeconds(1)).getValue();
                long lost = size(aof) - cutTo;
                truncate(aof, cutTo);
                what = "Redis (PID " + pids + ") killed and the last second of its AOF (" + lost + " bytes) cut off";
                ServiceProcess.sleep(drill.outage());
                current.up(EnumSet.of(Component.REDIS));
            }
            case REDIS_MASTER_KILL -> {
                // the SKU's stock hash, inv:{<sku>}: its hash tag picks the slot
                int[] masterAndReplica = current.redisClusterMasterAndReplicaOf("inv:{" + hotSku + "}");
                if (masterAndReplica[1] < 0) {
                    throw new IllegalStateException("the master of the hot SKU's slot (port " + masterAndReplica[0]
                            + ") has no replica to take over");
                }
                at = Instant.now();
                List<Long> pids = current.kill(Component.REDIS_CLUSTER, "node-" + masterAndReplica[0]);
                Instant until = at.plus(Duration.ofSeconds(60));
                while (!"master".equals(current.redisClusterRole(masterAndReplica[1]))
                        && Instant.now().isBefore(until)) {
                    ServiceProcess.sleep(Duration.ofMillis(200));
                }
                if (!"master".equals(current.redisClusterRole(masterAndReplica[1]))) {
                    // the dead node must not come back before it is replaced: it keeps no data, and would serve
                    // its slots again, empty
                    throw new IllegalStateException("the replica on port " + masterAndReplica[1] + " did not take"
                            + " over within 60 s");
                }
                Duration promoted = Duration.between(at, Instant.now());
                current.up(EnumSet.of(Component.REDIS_CLUSTER));
                what = "Redis Cluster master of the hot SKU's slot (port " + masterAndReplica[0] + ", PID " + pids
                        + ") killed; its replica (port " + masterAndReplica[1] + ") master " + promoted.toMillis()
                        / 1000.0 + " s later, the dead node back as its replica";
            }
            case BROKER_KILL -> {
                at = Instant.now();
                List<Long> pids = current.kill(Component.ROCKETMQ, "broker");
                // a second of sale without a broker: the instance's forwarder takes events it cannot send
                ServiceProcess.sleep(Duration.ofSeconds(1));
                ServiceProcess victim = services.inventories().get(0);
                long pid = victim.pid();
                victim.kill();
                what = "RocketMQ broker (PID " + pids + ") killed, 1 s later " + victim.name() + " (PID " + pid
                        + ") killed";
                ServiceProcess.sleep(drill.outage());
                current.up(EnumSet.of(Component.ROCKETMQ));
                victim.start(Duration.ofMinutes(3));
            }
            default -> {
                Component server = drill.server().orElseThrow();
                at = Instant.now();
                List<Long> pids = current.kill(server);
                what = server.cliName() + " (PID " + pids + ") killed";
                ServiceProcess.sleep(drill.outage());
                current.up(EnumSet.of(server));
            }
        }
        back.set(Duration.between(at, Instant.now()));
        return what + "; healthy again " + back.get().toMillis() / 1000.0 + " s after the fault";
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void truncate(Path file, long size) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TcpProxy redisProxy() {
        if (redisProxy == null) {
            redisProxy = TcpProxy.start(current.endpoints().redisHost(), current.endpoints().redisPort(), 0);
        }
        return redisProxy;
    }

    // ---- reading back -------------------------------------------------------------------------------------

    record OrderRow(String status, String xid, Map<String, Integer> units) {
    }

    /** Every order with a line for one of the SKUs, from order-demo's database: status, XID, units per SKU. */
    private Map<String, OrderRow> orders(Set<String> skuIds) {
        Map<String, OrderRow> orders = new HashMap<>();
        forEachRow("orders", "SELECT o.order_id, o.status, o.xid, l.sku_id, l.quantity"
                + " FROM orders o JOIN order_line l ON l.order_id = o.order_id WHERE o.order_id IN"
                + " (SELECT order_id FROM order_line WHERE sku_id IN (?))", skuIds, rs -> {
                    OrderRow row = orders.get(rs.getString(1));
                    if (row == null) {
                        row = new OrderRow(rs.getString(2), rs.getString(3), new HashMap<>());
                        orders.put(rs.getString(1), row);
                    }
                    row.units().merge(rs.getString(4), rs.getInt(5), Integer::sum);
                });
        return orders;
    }

    /** One line of a reservation in the inventory ledger; {@code backend}: the store that held it, REDIS or MYSQL. */
    record LedgerRow(String xid, String orderId, String skuId, int quantity, String state, String backend) {

        LedgerRow(String xid, String orderId, String skuId, int quantity, String state) {
            this(xid, orderId, skuId, quantity, state, "REDIS");
        }
    }

    /** The inventory ledger's rows for these SKUs (the reservation key is the order id). */
    private List<LedgerRow> ledger(Set<String> skuIds) {
        List<LedgerRow> rows = new ArrayList<>();
        forEachRow("inventory", "SELECT xid, reservation_key, sku_id, quantity, state, backend FROM stock_ledger"
                + " WHERE sku_id IN (?)", skuIds, rs -> rows.add(new LedgerRow(rs.getString(1), rs.getString(2),
                        rs.getString(3), rs.getInt(4), rs.getString(5), rs.getString(6))));
        return rows;
    }

    private interface RowReader {
        void read(ResultSet row) throws SQLException;
    }

    /** Runs {@code sql} on one of the devstack's databases, its {@code IN (?)} widened to the SKUs, row by row. */
    private void forEachRow(String database, String sql, Set<String> skuIds, RowReader reader) {
        Endpoints e = current.endpoints();
        String marks = String.join(",", skuIds.stream().map(s -> "?").toList());
        try (Connection c = DriverManager.getConnection(e.jdbcUrl(database), e.dbUser(database), e.dbPassword());
             PreparedStatement q = c.prepareStatement(sql.replace("IN (?)", "IN (" + marks + ")"))) {
            int i = 1;
            for (String sku : skuIds) {
                q.setString(i++, sku);
            }
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    reader.read(rs);
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("cannot read the " + database + " database: " + ex.getMessage(), ex);
        }
    }

    /**
     * Order lines and reservations that disagree: a CONFIRMED order whose line has no CONFIRMED ledger row of the
     * same XID and units, and a CONFIRMED ledger row whose order is not CONFIRMED under that XID.
     */
    static List<String> unmatched(Map<String, OrderRow> orders, List<LedgerRow> ledger) {
        Map<String, LedgerRow> byLine = new HashMap<>();
        ledger.forEach(r -> byLine.put(r.xid() + "|" + r.orderId() + "|" + r.skuId(), r));
        List<String> unmatched = new ArrayList<>();
        orders.forEach((orderId, order) -> order.units().forEach((sku, units) -> {
            if (order.status().equals("CONFIRMED")) {
                LedgerRow r = byLine.get(order.xid() + "|" + orderId + "|" + sku);
                if (r == null || !r.state().equals("CONFIRMED") || r.quantity() != units) {
                    unmatched.add("order " + orderId + " (xid " + order.xid() + ") CONFIRMED with " + units + " x "
                            + sku + ", reservation " + (r == null ? "absent from the ledger"
                            : r.state() + " " + r.quantity()));
                }
            }
        }));
        for (LedgerRow r : ledger) {
            OrderRow order = orders.get(r.orderId());
            if (r.state().equals("CONFIRMED") && (order == null || !order.status().equals("CONFIRMED")
                    || !r.xid().equals(order.xid()))) {
                unmatched.add("reservation " + r.orderId() + " (xid " + r.xid() + ") CONFIRMED for " + r.quantity()
                        + " x " + r.skuId() + ", order " + (order == null ? "absent"
                        : order.status() + " under xid " + order.xid()));
            }
        }
        return unmatched;
    }

    /**
     * What the system has not finished yet: empty once nothing is pending, reserved, on its way between the stores or
     * held by the TC, and (unless {@code awaitEvents} is false) every stock event the ledger calls for is on the
     * topic.
     */
    private String waitingFor(Set<String> skuIds, boolean awaitEvents) {
        try {
            Map<String, OrderRow> orders = orders(skuIds);
            long pending = orders.values().stream().filter(o -> o.status().equals("PENDING")).count();
            if (pending > 0) {
                return pending + " PENDING order(s)";
            }
            for (String sku : skuIds) {
                StockCounts stock = StockCounts.of(stock(sku));
                long reserved = stock.reserved();
                if (reserved != 0) {
                    return reserved + " unit(s) reserved of " + sku;
                }
                long incoming = stock.reserveIncoming();
                if (incoming != 0) {
                    return incoming + " unit(s) of " + sku + " on their way to its MySQL reserve";
                }
            }
            // a handover cut short by the fault (its instance killed between MySQL's step and Redis's) holds its
            // units in neither store's counts until a survivor completes it (inventory.handover.complete-after)
            long[] moving = new long[2];
            forEachRow("inventory", "SELECT COUNT(*), COALESCE(SUM(units), 0) FROM stock_handover"
                    + " WHERE state = 'PENDING' AND sku_id IN (?)", skuIds, rs -> {
                        moving[0] = rs.getLong(1);
                        moving[1] = rs.getLong(2);
                    });
            if (moving[0] > 0) {
                return moving[0] + " handover(s) of " + moving[1] + " unit(s) between Redis and the MySQL reserve";
            }
            Set<String> xids = new HashSet<>();
            orders.values().forEach(o -> xids.add(o.xid()));
            int sessions = tcSessions(xids);
            if (sessions > 0) {
                return sessions + " global session(s) at the TC";
            }
            int missing = awaitEvents ? events.missing(ledger(skuIds)).size() : 0;
            return missing == 0 ? "" : missing + " stock event(s) not on the topic yet";
        } catch (RuntimeException e) {
            return "an answer (" + e.getMessage() + ")";
        }
    }

    /**
     * @param bought per buyer of the SKU, the units of its CONFIRMED reservations in Redis and in the MySQL store
     */
    private DrillReport.SkuOutcome outcome(String sku, Map<String, OrderRow> orders, List<long[]> bought) {
        long inOrders = orders.values().stream().filter(o -> o.status().equals("CONFIRMED"))
                .mapToLong(o -> o.units().getOrDefault(sku, 0)).sum();
        InventoryApi.StockView stock = stock(sku);
        long limit = stock.mysql() == null || stock.mysql().perUserLimit() == null ? 0 : stock.mysql().perUserLimit();
        int inAStore = 0;
        int across = 0;
        if (limit > 0) {
            for (long[] b : bought) {
                inAStore += b[0] > limit || b[1] > limit ? 1 : 0;
                across += b[0] + b[1] > limit ? 1 : 0;
            }
        }
        return new DrillReport.SkuOutcome(sku, StockCounts.of(stock), inOrders, inAStore, across);
    }

    /** Per SKU and buyer, the units of CONFIRMED reservations {Redis's, the MySQL store's}, from the ledger. */
    private Map<String, List<long[]>> boughtByBuyer(Set<String> skuIds) {
        Map<String, List<long[]>> bought = new HashMap<>();
        forEachRow("inventory", "SELECT sku_id, SUM(CASE WHEN backend = 'REDIS' THEN quantity ELSE 0 END),"
                + " SUM(CASE WHEN backend = 'MYSQL' THEN quantity ELSE 0 END) FROM stock_ledger"
                + " WHERE state = 'CONFIRMED' AND user_id IS NOT NULL AND sku_id IN (?) GROUP BY sku_id, user_id",
                skuIds, rs -> bought.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new long[] {rs.getLong(2), rs.getLong(3)}));
        return bought;
    }

    private long reserved(String sku) {
        try {
            return StockCounts.of(stock(sku)).redisReserved();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** The SKU's stock view; a 503 (a store coming back, a SKU being rebuilt) is asked again for up to 60 s. */
    private InventoryApi.StockView stock(String sku) {
        return services.inventoryApi().stock(sku, FlashSale.STOCK_PATIENCE);
    }

    /** Global sessions the TC still holds whose XID is one of these (read through its console API). */
    private int tcSessions(Set<String> xids) {
        String console = current.endpoints().seataConsoleUrl();
        HttpResponse<String> login = console(HttpRequest.newBuilder(URI.create(console + "/api/v1/auth/login"))
                .timeout(Duration.ofSeconds(90)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ServiceHttp.write(Map.of("username",
                        DevStackConfig.SEATA_CONSOLE_USER, "password", DevStackConfig.SEATA_CONSOLE_PASSWORD)))));
        String token = ServiceHttp.tree(login.body()).path("data").asText("");
        if (token.isEmpty()) {
            throw new IllegalStateException("cannot log in to the Seata console: " + login.body());
        }
        int left = 0;
        for (int page = 1; page <= 50; page++) {
            JsonNode answer = ServiceHttp.tree(console(HttpRequest.newBuilder(URI.create(console
                    + "/api/v1/console/globalSession/query?pageNum=" + page + "&pageSize=100&withBranch=false"))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", token).GET()).body());
            if (!answer.path("success").asBoolean()) {
                throw new IllegalStateException("the Seata console did not list sessions: " + answer);
            }
            JsonNode data = answer.path("data");
            for (JsonNode session : data) {
                if (xids.contains(session.path("xid").asText())) {
                    left++;
                }
            }
            if (data.size() < 100) {
                break;
            }
        }
        return left;
    }

    /** A reconciliation run now; its findings on these SKUs or on these global transactions. */
    private List<String> findings(Set<String> skuIds, Set<String> xids) {
        InventoryApi.ReconciliationReport report;
        try {
            report = services.inventoryApi().runReconciliation();
        } catch (ServiceProblem e) {
            return List.of("reconciliation did not run: " + e.status() + " " + e.body());
        }
        List<String> findings = new ArrayList<>();
        for (InventoryApi.Finding f : report.findings()) {
            String sku = f.skuId() == null ? "" : f.skuId();
            if (skuIds.contains(sku) || xids.contains(f.facts().path("xid").asText())) {
                findings.add(f.kind() + " " + sku + " " + f.facts());
            }
        }
        return findings;
    }

    private void createSku(String sku, int units) {
        services.inventoryApi().createSku(sku, new InventoryApi.NewSku(units, 1000, null));
    }

    /** An order placed for its side effect: its status, -1 without an answer. */
    private static int placeQuietly(OrdersApi orders, String buyer, OrdersApi.OrderRequest order, String fault) {
        try {
            return orders.place(buyer, order, null, fault).accepted() ? 202 : 201;
        } catch (ServiceProblem e) {
            return e.status();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    // ---- the Seata console --------------------------------------------------------------------------------

    private static HttpResponse<String> console(HttpRequest.Builder builder) {
        HttpRequest request = builder.build();
        try {
            return ServiceHttp.client().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ServiceUnreachable(request.method() + " " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Puts the TC back in the store the stack is configured with. */
    @Override
    public void close() {
        if (redisProxy != null) {
            redisProxy.close();
            redisProxy = null;
        }
        if (events != null) {
            events.close();
            events = null;
        }
        if (current != configured) {
            current.stop(Component.SEATA);
            current = configured;
            configured.up(EnumSet.of(Component.SEATA));
        }
    }
}
