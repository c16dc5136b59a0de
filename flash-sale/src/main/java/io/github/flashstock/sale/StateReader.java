package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.ServiceHttp;
import io.github.flashstock.clients.ServiceProblem;
import io.github.flashstock.clients.ServiceUnreachable;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.DevStackConfig;
import io.github.flashstock.devstack.Endpoints;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a drill reads of the system it hit: order-demo's and inventory's databases (orders, the ledger, handovers), the
 * inventory's stock views and reconciliation through {@link InventoryApi}, the TC's sessions through the Seata console,
 * and the stock events on the topic ({@link EventTopic}).
 */
final class StateReader {

    private final DevStack stack;
    private final InventoryApi inventory;
    private final EventTopic events;

    /** @param inventory an inventory instance's API with the admin token */
    StateReader(DevStack stack, InventoryApi inventory, EventTopic events) {
        this.stack = stack;
        this.inventory = inventory;
        this.events = events;
    }

    record OrderRow(String status, String xid, Map<String, Integer> units) {
    }

    /** Every order with a line for one of the SKUs, from order-demo's database: status, XID, units per SKU. */
    Map<String, OrderRow> orders(Set<String> skuIds) {
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

    /** One line of a reservation in the inventory ledger; {@code store}: the store that held it, REDIS or MYSQL. */
    record LedgerRow(String xid, String orderId, String skuId, int quantity, String state, String store) {

        LedgerRow(String xid, String orderId, String skuId, int quantity, String state) {
            this(xid, orderId, skuId, quantity, state, "REDIS");
        }
    }

    /** The inventory ledger's rows for these SKUs (the reservation key is the order id). */
    List<LedgerRow> ledger(Set<String> skuIds) {
        List<LedgerRow> rows = new ArrayList<>();
        forEachRow("inventory", "SELECT xid, reservation_key, sku_id, quantity, state, store FROM stock_ledger"
                + " WHERE sku_id IN (?)", skuIds, rs -> rows.add(new LedgerRow(rs.getString(1), rs.getString(2),
                        rs.getString(3), rs.getInt(4), rs.getString(5), rs.getString(6))));
        return rows;
    }

    private interface RowReader {
        void read(ResultSet row) throws SQLException;
    }

    /** Runs {@code sql} on one of the devstack's databases, its {@code IN (?)} widened to the SKUs, row by row. */
    private void forEachRow(String database, String sql, Set<String> skuIds, RowReader reader) {
        Endpoints e = stack.endpoints();
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

    /** The SKUs' handovers between Redis and the MySQL store now: how many, when one last changed, how many pend. */
    StillRead.HandoverMark handovers(Set<String> skuIds) {
        StillRead.HandoverMark[] mark = {new StillRead.HandoverMark(0, "", 0)};
        forEachRow("inventory", "SELECT COUNT(*), COALESCE(CAST(MAX(updated_at) AS CHAR), ''),"
                + " COALESCE(SUM(state = 'PENDING'), 0) FROM stock_handover WHERE sku_id IN (?)", skuIds,
                rs -> mark[0] = new StillRead.HandoverMark(rs.getLong(1), rs.getString(2), rs.getLong(3)));
        return mark[0];
    }

    /**
     * What the system has not finished yet: empty once nothing is pending, reserved, on its way between the stores or
     * held by the TC, and (unless {@code awaitEvents} is false) every stock event the ledger calls for is on the
     * topic.
     */
    String waitingFor(Set<String> skuIds, boolean awaitEvents) {
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
                long incoming = stock.allotmentIncoming();
                if (incoming != 0) {
                    return incoming + " unit(s) of " + sku + " on their way to its allotment";
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
                return moving[0] + " handover(s) of " + moving[1] + " unit(s) between Redis and the MySQL store's allotment";
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
     * Deletes the sessions the TCs ended (rolled back) but could not delete, with no branch left, 30 s after their
     * last change ({@link SeataSweep}); none while the database does not answer. @return one line per session deleted
     */
    List<String> sweepEndedSessions() {
        try {
            return SeataSweep.run(stack.endpoints(), stack.config().root(), Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** Per SKU, each buyer's units in CONFIRMED orders, from order-demo's database. */
    Map<String, List<Long>> boughtInOrders(Set<String> skuIds) {
        Map<String, List<Long>> bought = new HashMap<>();
        forEachRow("orders", "SELECT l.sku_id, SUM(l.quantity) FROM orders o JOIN order_line l ON l.order_id ="
                + " o.order_id WHERE o.status = 'CONFIRMED' AND l.sku_id IN (?) GROUP BY l.sku_id, o.user_id",
                skuIds, rs -> bought.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getLong(2)));
        return bought;
    }

    /** Per SKU and buyer, the units of CONFIRMED reservations {Redis's, the MySQL store's}, from the ledger. */
    Map<String, List<long[]>> boughtByBuyer(Set<String> skuIds) {
        Map<String, List<long[]>> bought = new HashMap<>();
        forEachRow("inventory", "SELECT sku_id, SUM(CASE WHEN store = 'REDIS' THEN quantity ELSE 0 END),"
                + " SUM(CASE WHEN store = 'MYSQL' THEN quantity ELSE 0 END) FROM stock_ledger"
                + " WHERE state = 'CONFIRMED' AND user_id IS NOT NULL AND sku_id IN (?) GROUP BY sku_id, user_id",
                skuIds, rs -> bought.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new long[] {rs.getLong(2), rs.getLong(3)}));
        return bought;
    }

    /** The units Redis holds for open Tries of the SKU; 0 when the stock view cannot be read. */
    long reserved(String sku) {
        try {
            return StockCounts.of(stock(sku)).redisReserved();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** The SKU's stock view; a 503 (a store coming back, a SKU being rebuilt) is asked again for up to 60 s. */
    InventoryApi.StockView stock(String sku) {
        return inventory.stock(sku, FlashSale.STOCK_PATIENCE);
    }

    /**
     * Global sessions a TC still holds whose XID is one of these, read through every TC's console API: each of
     * several TCs lists the sessions of all of them from the shared store, so a session counts once however many
     * consoles show it.
     */
    int tcSessions(Set<String> xids) {
        Set<String> left = new HashSet<>();
        for (String console : stack.endpoints().seataConsoleUrls()) {
            left.addAll(sessionsAt(console, xids));
        }
        return left.size();
    }

    private static Set<String> sessionsAt(String console, Set<String> xids) {
        HttpResponse<String> login = console(HttpRequest.newBuilder(URI.create(console + "/api/v1/auth/login"))
                .timeout(Duration.ofSeconds(90)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ServiceHttp.write(Map.of("username",
                        DevStackConfig.SEATA_CONSOLE_USER, "password", DevStackConfig.SEATA_CONSOLE_PASSWORD)))));
        String token = ServiceHttp.tree(login.body()).path("data").asText("");
        if (token.isEmpty()) {
            throw new IllegalStateException("cannot log in to the Seata console at " + console + ": " + login.body());
        }
        Set<String> left = new HashSet<>();
        for (int page = 1; page <= 50; page++) {
            JsonNode answer = ServiceHttp.tree(console(HttpRequest.newBuilder(URI.create(console
                    + "/api/v1/console/globalSession/query?pageNum=" + page + "&pageSize=100&withBranch=false"))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", token).GET()).body());
            if (!answer.path("success").asBoolean()) {
                throw new IllegalStateException("the Seata console at " + console + " did not list sessions: "
                        + answer);
            }
            JsonNode data = answer.path("data");
            for (JsonNode session : data) {
                String xid = session.path("xid").asText();
                if (xids.contains(xid)) {
                    left.add(xid);
                }
            }
            if (data.size() < 100) {
                break;
            }
        }
        return left;
    }

    /** A reconciliation run now; its findings on these SKUs or on these global transactions. */
    List<String> findings(Set<String> skuIds, Set<String> xids) {
        InventoryApi.ReconciliationReport report;
        try {
            report = inventory.runReconciliation();
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
}
