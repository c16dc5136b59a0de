package io.github.flashstock.sale;

import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What order-demo keeps of an order but does not tell its buyer, read from its database as the drills read it: the
 * XID of the global transaction that placed it.
 */
final class OrdersTable {

    private OrdersTable() {
    }

    /** The XID of the buyer's order that is still open (PENDING), if there is one. */
    static Optional<String> openXidOf(String userId) {
        return one("SELECT xid FROM orders WHERE user_id = ? AND status = 'PENDING' AND xid IS NOT NULL", userId);
    }

    /** The XID of the buyer's only order, if it has one. */
    static Optional<String> xidOf(String userId) {
        return one("SELECT xid FROM orders WHERE user_id = ? AND xid IS NOT NULL", userId);
    }

    private static Optional<String> one(String sql, String parameter) {
        Endpoints stack = SharedStack.endpoints();
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl("orders"), stack.dbUser("orders"),
                stack.dbPassword());
             PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, parameter);
            try (ResultSet row = q.executeQuery()) {
                return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the orders database: " + sql, e);
        }
    }

    /** The order's XID; empty when it has none (refused before any transaction) or there is no such order. */
    static Optional<String> xid(String orderId) {
        Endpoints stack = SharedStack.endpoints();
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl("orders"), stack.dbUser("orders"),
                stack.dbPassword());
             PreparedStatement q = c.prepareStatement("SELECT xid FROM orders WHERE order_id = ?")) {
            q.setString(1, orderId);
            try (ResultSet row = q.executeQuery()) {
                return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read order " + orderId + " from the orders database", e);
        }
    }
}
