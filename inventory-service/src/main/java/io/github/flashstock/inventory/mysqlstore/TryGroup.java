package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.OneTrip;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.StockLine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One transaction for many one-line Tries of one SKU: the MySQL store's group commit. The Tries are decided in
 * order, each all or nothing and exactly as it would be decided alone after the ones before it (the allotment's
 * units left, the buyer's units including those taken earlier in the group); then one update takes the accepted
 * units out of the allotment, one insert writes their TRIED rows, and one commit ends it. Two requests to MariaDB
 * ({@code allowMultiQueries}), the SKU's row locked from the first to the end of the second:
 * <ol>
 *   <li>{@code START TRANSACTION}, the SKU's row {@code FOR UPDATE}, the ledger rows the group's reservations have
 *       of the SKU already, and, for a SKU with a per-user limit, each buyer's units in both stores (TRIED and
 *       CONFIRMED rows), counted after the row lock: in READ COMMITTED every purchase committed before it;</li>
 *   <li>the update for the accepted units, the TRIED rows, {@code COMMIT}; or {@code ROLLBACK} when none was
 *       accepted.</li>
 * </ol>
 * Lock order: the SKU's row, then the new ledger rows, as in the one-trip Try. The general Try (several lines, or a
 * Try whose rows exist) inserts its ledger rows first and then locks the SKU rows; the two can only wait on each
 * other over the same reservation's row of the same SKU (a replay racing its original), which MariaDB ends as a
 * deadlock: the group is rolled back and its Tries go again alone.
 *
 * <p>What the group does not decide it leaves to the general path, answered empty: a Try whose reservation has a
 * row of the SKU (a replay, a Cancel that came first, a reservation Redis holds, a recorded refusal), the second Try
 * of one reservation in the group, and every Try of a SKU that does not exist. The caller runs those alone after the
 * group has committed. The update carries no condition: the units were counted under the row lock, and the table's
 * check ({@code allotment_available >= 0}) refuses the statement, so the whole request, should they be short
 * anyway.
 */
final class TryGroup {

    /** One Try of a group, with whether Redis answered for it (it decides "not now" against "sold out"). */
    record Attempt(TryRequest request, boolean redisReachable, boolean limitCounted) {

        StockLine line() {
            return request.lines().get(0);
        }

        Key key() {
            return new Key(request.xid(), request.reservationId());
        }
    }

    /** A reservation, as the ledger's unique key names it within one SKU. */
    record Key(String xid, String reservationId) {
    }

    /**
     * What the group does: one answer per Try (empty: the caller takes it alone), the Tries it reserves and their
     * units, and the allotment's units after them.
     */
    record Plan(List<Optional<TryOutcome>> answers, List<Attempt> accepted, long units, long availableAfter,
                boolean sawShort) {
    }

    private static final String ROW = "SELECT sku_id, stocked, sold, reserved, allotment_available, allotment_incoming,"
            + " allotment_sold, per_user_limit, version FROM sku_stock WHERE sku_id = ? FOR UPDATE";

    private final JdbcTemplate jdbc;
    private final Map<String, Boolean> limited;
    private final AllotmentLevels levels;

    /**
     * @param limited the SKUs seen with a per-user limit (shared with the one-trip Try): their buyers' units are read
     *                in the first request
     */
    TryGroup(JdbcTemplate jdbc, Map<String, Boolean> limited, AllotmentLevels levels) {
        this.jdbc = jdbc;
        this.limited = limited;
        this.levels = levels;
    }

    /**
     * Decides the Tries, one SKU's, in order, as the single path would one after the other.
     *
     * @param row      the SKU's row, read under its lock
     * @param existing the reservations that have a row of the SKU already
     * @param held     per buyer, the units held in TRIED and CONFIRMED rows of the SKU (a buyer without any: absent)
     */
    static Plan decide(SkuStockRow row, Set<Key> existing, Map<String, Long> held, List<Attempt> attempts) {
        List<Optional<TryOutcome>> answers = new ArrayList<>(attempts.size());
        List<Attempt> accepted = new ArrayList<>();
        Map<String, Long> buyers = new HashMap<>(held);
        Set<Key> seen = new HashSet<>();
        long available = row.allotmentAvailable();
        long units = 0;
        boolean sawShort = false;
        for (Attempt a : attempts) {
            int q = a.line().quantity();
            if (!seen.add(a.key()) || existing.contains(a.key())) {
                answers.add(Optional.empty());
            } else if (available < q) {
                sawShort = true;
                answers.add(Optional.of(MysqlReservations.reserveShort(row.skuId(), available, row.redisAvailable(), q,
                        a.redisReachable())));
            } else if (row.perUserLimit() != null && !a.limitCounted()
                    && buyers.getOrDefault(a.request().userId(), 0L) + q > row.perUserLimit()) {
                answers.add(Optional.of(new TryOutcome.PurchaseLimitExceeded(row.skuId(), q, row.perUserLimit(),
                        buyers.getOrDefault(a.request().userId(), 0L))));
            } else {
                available -= q;
                units += q;
                buyers.merge(a.request().userId(), (long) q, Long::sum);
                accepted.add(a);
                answers.add(Optional.of(new TryOutcome.Reserved()));
            }
        }
        return new Plan(answers, accepted, units, available, sawShort);
    }

    /** Runs the group's transaction: one answer per Try, in order; empty for those the caller takes alone. */
    List<Optional<TryOutcome>> run(List<Attempt> attempts) {
        String sku = attempts.get(0).line().skuId();
        List<Key> keys = new ArrayList<>(new LinkedHashSet<>(attempts.stream().map(Attempt::key).toList()));
        List<String> users = new ArrayList<>(new LinkedHashSet<>(attempts.stream()
                .map(a -> a.request().userId()).toList()));
        return jdbc.execute((ConnectionCallback<List<Optional<TryOutcome>>>) c -> {
            if (!c.getAutoCommit()) {
                return attempts.stream().map(a -> Optional.<TryOutcome>empty()).toList();
            }
            try {
                return decideAndWrite(c, sku, keys, users, attempts);
            } catch (SQLException | RuntimeException e) {
                try {
                    OneTrip.end(c, "ROLLBACK");
                } catch (SQLException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        });
    }

    private List<Optional<TryOutcome>> decideAndWrite(Connection c, String sku, List<Key> keys, List<String> users,
                                                      List<Attempt> attempts) throws SQLException {
        boolean withLimit = limited.containsKey(sku);
        SkuStockRow row;
        Set<Key> existing = new HashSet<>();
        Map<String, Long> held = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(firstRequest(keys.size(), withLimit ? users.size() : 0))) {
            int i = 1;
            ps.setString(i++, sku);
            for (Key k : keys) {
                ps.setString(i++, k.xid());
                ps.setString(i++, k.reservationId());
                ps.setString(i++, sku);
            }
            if (withLimit) {
                i = bindBuyers(ps, i, sku, users);
            }
            ps.execute(); // START TRANSACTION
            try (ResultSet rs = nextResultSet(ps)) {
                row = rs.next() ? row(rs) : null;
            }
            try (ResultSet rs = nextResultSet(ps)) {
                while (rs.next()) {
                    existing.add(new Key(rs.getString(1), rs.getString(2)));
                }
            }
            if (withLimit) {
                readHeld(nextResultSet(ps), held);
            }
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // read to the end, so the connection is clean for the next statement
            }
        }
        if (row == null) {
            OneTrip.end(c, "ROLLBACK");
            return attempts.stream().map(a -> Optional.<TryOutcome>empty()).toList(); // the general path: unknown SKU
        }
        if (row.perUserLimit() == null) {
            limited.remove(sku);
            held.clear();
        } else if (!withLimit) {
            limited.put(sku, Boolean.TRUE);
            try (PreparedStatement ps = c.prepareStatement(heldQuery(users.size()))) {
                bindBuyers(ps, 1, sku, users);
                readHeld(ps.executeQuery(), held);
            }
        }
        Plan plan = decide(row, existing, held, attempts);
        if (plan.sawShort()) {
            levels.saw(sku, plan.availableAfter());
        }
        if (plan.accepted().isEmpty()) {
            OneTrip.end(c, "ROLLBACK");
            return plan.answers();
        }
        write(c, sku, plan);
        return plan.answers();
    }

    /** The update, the TRIED rows and the commit, in one request. */
    private static void write(Connection c, String sku, Plan plan) throws SQLException {
        StringBuilder sql = new StringBuilder("UPDATE sku_stock SET reserved = reserved + ?,"
                + " allotment_available = allotment_available - ?, version = version + 1 WHERE sku_id = ?;"
                + " INSERT INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id,"
                + " redis_mirrored) VALUES ");
        for (int n = 0; n < plan.accepted().size(); n++) {
            sql.append(n == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, 'TRIED', 'MYSQL', ?, 0)");
        }
        sql.append("; COMMIT");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            ps.setLong(i++, plan.units());
            ps.setLong(i++, plan.units());
            ps.setString(i++, sku);
            for (Attempt a : plan.accepted()) {
                ps.setString(i++, a.request().xid());
                ps.setString(i++, a.request().reservationId());
                ps.setLong(i++, a.request().branchId());
                ps.setString(i++, sku);
                ps.setInt(i++, a.line().quantity());
                ps.setString(i++, a.request().userId());
            }
            ps.execute();
            int taken = ps.getUpdateCount();
            ps.getMoreResults();
            int written = ps.getUpdateCount();
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // the COMMIT
            }
            if (taken != 1 || written != plan.accepted().size()) {
                // cannot happen with the row locked since it was read; committed all the same, so say it loudly
                throw new IllegalStateException("the MySQL store's group of " + plan.accepted().size() + " Tries of "
                        + sku + " updated " + taken + " sku_stock row(s) and wrote " + written + " ledger row(s)");
            }
        }
    }

    private static String firstRequest(int keys, int users) {
        StringBuilder sql = new StringBuilder("START TRANSACTION; ").append(ROW)
                .append("; SELECT xid, reservation_key FROM stock_ledger WHERE ");
        for (int n = 0; n < keys; n++) {
            sql.append(n == 0 ? "" : " OR ").append("(xid = ? AND reservation_key = ? AND sku_id = ?)");
        }
        if (users > 0) {
            sql.append("; ").append(heldQuery(users));
        }
        return sql.toString();
    }

    /** Each buyer's units of the SKU in TRIED and CONFIRMED rows, either store. */
    private static String heldQuery(int users) {
        StringBuilder sql = new StringBuilder("SELECT user_id, SUM(quantity) FROM stock_ledger WHERE sku_id = ?"
                + " AND user_id IN (");
        for (int n = 0; n < users; n++) {
            sql.append(n == 0 ? "?" : ", ?");
        }
        return sql.append(") AND state IN ('TRIED', 'CONFIRMED') GROUP BY user_id").toString();
    }

    private static int bindBuyers(PreparedStatement ps, int from, String sku, List<String> users) throws SQLException {
        int i = from;
        ps.setString(i++, sku);
        for (String user : users) {
            ps.setString(i++, user);
        }
        return i;
    }

    private static void readHeld(ResultSet rs, Map<String, Long> held) throws SQLException {
        try (rs) {
            while (rs.next()) {
                held.put(rs.getString(1), rs.getLong(2));
            }
        }
    }

    private static ResultSet nextResultSet(PreparedStatement ps) throws SQLException {
        if (!ps.getMoreResults()) {
            throw new IllegalStateException("the MySQL store's group expected a result set, got update count "
                    + ps.getUpdateCount());
        }
        return ps.getResultSet();
    }

    private static SkuStockRow row(ResultSet rs) throws SQLException {
        Integer limit = rs.getObject("per_user_limit") == null ? null : rs.getInt("per_user_limit");
        return new SkuStockRow(rs.getString("sku_id"), rs.getLong("stocked"), rs.getLong("sold"),
                rs.getLong("reserved"), rs.getLong("allotment_available"), rs.getLong("allotment_incoming"),
                rs.getLong("allotment_sold"), limit, rs.getLong("version"));
    }
}
