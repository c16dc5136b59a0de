package io.github.flashstock.sale;

import static io.github.flashstock.sale.Http.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A buyer names a global transaction in header {@code TX_XID}: a live one (another buyer's order, held open after its
 * Try) or one the coordinator never opened. order-demo ignores the header: each order begins its own transaction, is
 * answered as it would be without the header, and the named transaction gains no branch.
 */
class ForeignTransactionsIT {

    private final Http http = EndToEnd.http();

    @Test
    void aTransactionABuyerNamesIsNeverJoinedAndChangesNoAnswer() throws Exception {
        String sku = "foreign-xid-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(http.createSku(sku, 100, 10).status()).isEqualTo(201);
        String run = UUID.randomUUID().toString().substring(0, 6);
        String holder = "holder-" + run;
        CompletableFuture<Http.Reply> held = CompletableFuture.supplyAsync(() ->
                http.placeOrder(order(holder, sku, 1), "delay-after-reserve=PT6S"));
        String live = await("the held order's transaction is open").atMost(Duration.ofSeconds(20))
                .until(() -> OrdersTable.openXidOf(holder), Optional::isPresent).orElseThrow();
        String unopened = "127.0.0.1:18091:" + (Long.MAX_VALUE - 7);

        Http.Reply joining = http.placeOrderWithHeaders(order("joiner-" + run, sku, 1), Map.of("TX_XID", live));
        Http.Reply guessing = http.placeOrderWithHeaders(order("guesser-" + run, sku, 1), Map.of("TX_XID", unopened));
        Http.Reply plain = http.placeOrder(order("plain-" + run, sku, 1));

        for (Http.Reply answer : List.of(joining, guessing, plain)) {
            assertThat(answer.status()).as("%s", answer.body()).isEqualTo(201);
            assertThat(answer.body().path("status").asText()).isEqualTo("CONFIRMED");
        }
        assertThat(OrdersTable.xidOf("joiner-" + run)).hasValueSatisfying(xid -> assertThat(xid).isNotEqualTo(live));
        assertThat(OrdersTable.xidOf("guesser-" + run)).hasValueSatisfying(xid ->
                assertThat(xid).isNotEqualTo(unopened));
        assertThat(held.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
        // the live transaction holds its own order's reservation only
        await("the held order's reservation confirmed").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(ledgerOf(live)).hasSize(1).allSatisfy(row -> assertThat(row).endsWith("CONFIRMED")));
        assertThat(ledgerOf(unopened)).isEmpty();
    }

    /** The inventory ledger's rows of a transaction, as "reservation key / state". */
    private static List<String> ledgerOf(String xid) throws SQLException {
        Endpoints stack = SharedStack.endpoints();
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl("inventory"), stack.dbUser("inventory"),
                stack.dbPassword());
             PreparedStatement q = c.prepareStatement(
                     "SELECT reservation_key, state FROM stock_ledger WHERE xid = ?")) {
            q.setString(1, xid);
            List<String> rows = new ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    rows.add(r.getString(1) + " / " + r.getString(2));
                }
            }
            return rows;
        }
    }
}
