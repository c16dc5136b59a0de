package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.InventoryITSupport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The MySQL step of Confirm and Cancel against the ledger consumer's TRIED rows, on the real MariaDB and many
 * threads: whichever of the two writes a reservation's row first, and when a phase is replayed, every row
 * ends in its phase's state, each confirmed unit is counted in {@code sold} exactly once, and no call fails (a
 * deadlock between them would fail one). A variant that moved the row first and inserted only when there was none
 * deadlocked here: an UPDATE that finds no row takes a gap lock, and two phases' inserts into the same gap then
 * wait on each other. The phase therefore inserts first.
 */
class SalesRecordIT extends InventoryITSupport {

    @Autowired
    SalesRecord sales;

    @Autowired
    StockLedgerMapper ledger;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theConsumersTriedRowAndThePhaseMeetInAnyOrderAndCountEachSaleOnce() throws Exception {
        String sku = "sales-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked) VALUES (?, 100000)", sku);
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        int reservations = 300;
        List<Callable<Object>> work = new ArrayList<>();
        for (int i = 0; i < reservations; i++) {
            String reservation = "r-" + i;
            long units = 1 + i % 3;
            boolean confirm = i % 4 != 0;
            // the consumer's TRIED row beside the phase, which the TC then calls once more (a replay; the TC calls a
            // branch's phase again only after the last call ended)
            work.add(() -> ledger.insert(xid, reservation, 1, sku, units, "TRIED", "REDIS", "u-" + reservation));
            work.add(() -> {
                for (int call = 0; call < 2; call++) {
                    if (confirm) {
                        sales.confirmed(xid, reservation, 1, sku, units);
                    } else {
                        sales.cancelled(xid, reservation, 1, sku, units);
                    }
                }
                return null;
            });
        }
        Collections.shuffle(work);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            for (Future<Object> done : pool.invokeAll(work)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }

        long expectedSold = 0;
        for (int i = 0; i < reservations; i++) {
            String state = ledger.state(xid, "r-" + i, sku);
            assertThat(state).as("reservation r-%d", i).isEqualTo(i % 4 != 0 ? "CONFIRMED" : "CANCELLED");
            if (i % 4 != 0) {
                expectedSold += 1 + i % 3;
            }
        }
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku))
                .isEqualTo(expectedSold);
        assertThat(ledger.confirmedUnits(sku)).isEqualTo(expectedSold);
    }

    /**
     * The usual Confirm goes in one request and its commit; the rare ones are rolled back untouched and go the general
     * way: here a reservation the MySQL store held too, and a sale MySQL cannot take (drift), which fails and leaves
     * nothing changed.
     */
    @Test
    void aConfirmThatIsNotTheUsualOneChangesNothingOnTheShortWayAndIsDecidedTheGeneralWay() {
        String sku = "sales-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked, reserved, allotment_available) VALUES (?, 10, 2, 3)", sku);
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        // the MySQL store's Try holds 2 units of the reservation, and Redis confirms its own duplicate of it
        ledger.insert(xid, "held-twice", 1, sku, 2, "TRIED", "MYSQL", "u-1");

        sales.confirmed(xid, "held-twice", 1, sku, 2, "u-1");

        assertThat(ledger.state(xid, "held-twice", sku)).isEqualTo("CONFIRMED");
        assertThat(jdbc.queryForMap("SELECT reserved, allotment_available, sold FROM sku_stock WHERE sku_id = ?", sku))
                .containsEntry("reserved", 0L).containsEntry("allotment_available", 5L).containsEntry("sold", 2L);

        // Redis's share is 3 units now (10 - 2 sold - 5 in the allotment): a sale of 4 is drift, refused whole
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sales.confirmed(xid, "too-many", 1, sku, 4, "u-2"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ledger.state(xid, "too-many", sku)).isNull();
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isEqualTo(2);

        // and the usual one: the consumer's TRIED row moved, the sale counted, once however often it is called
        ledger.insert(xid, "plain", 1, sku, 3, "TRIED", "REDIS", "u-3");
        sales.confirmed(xid, "plain", 1, sku, 3, "u-3");
        sales.confirmed(xid, "plain", 1, sku, 3, "u-3");
        assertThat(ledger.state(xid, "plain", sku)).isEqualTo("CONFIRMED");
        assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, sku)).isEqualTo(5);
    }
}
