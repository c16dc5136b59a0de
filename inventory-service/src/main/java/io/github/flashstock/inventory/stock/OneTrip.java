package io.github.flashstock.inventory.stock;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * For the statements sent in one request ({@code allowMultiQueries}) that open their own transaction with
 * {@code START TRANSACTION} on a connection in autocommit: the MySQL store's Try and the Confirm's MySQL step.
 */
public final class OneTrip {

    private OneTrip() {
    }

    /** Ends the transaction such a request opened: {@code how} is COMMIT or ROLLBACK. */
    public static void end(Connection c, String how) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(how);
        }
    }
}
