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
import java.util.concurrent.atomic.AtomicLong;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;

/**
 * The MySQL step of Confirm and Cancel against the ledger consumer's TRIED rows, on the real MariaDB and many
 * threads: whichever of the two writes a reservation's row first, and when a phase is replayed, every row
 * ends in its phase's state, each confirmed unit is counted in {@code sold} exactly once, and no call fails (a
 * deadlock between them would fail one). A phase that moved the row first and inserted only when there was none
 * would deadlock here: an UPDATE that finds no row takes a gap lock, and two phases' inserts into the same gap then
 * wait on each other. The phase therefore inserts first.
 */
class SalesRecordIT extends InventoryITSupport {

    @Autowired
    SalesRecord sales;

    @Autowired
    StockLedgerMapper ledger;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    SkuStockMapper skuStock;

    @Autowired
    SalesGroupMapper groupRows;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    GroupCommit groupCommit;

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

    /**
     * Group commit: 32 threads confirm and cancel 1,200 reservations of three SKUs at once, each twice (a replay), some
     * meeting the consumer's TRIED row, some a row of the MySQL store (the general path, alone), three SKUs in one
     * group. Every reservation ends once in its phase's state, each SKU's sold is exactly its confirmed units, no call
     * fails (a deadlock between groups would fail one), and the groups did share commits: MariaDB counted far fewer
     * commits than phases.
     */
    @Test
    void concurrentPhasesShareTransactionsAndEachIsRecordedOnce() throws Exception {
        List<String> skus = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            String sku = "group-" + s + "-" + UUID.randomUUID();
            jdbc.update("INSERT INTO sku_stock (sku_id, stocked, reserved) VALUES (?, 100000, 1000)", sku);
            skus.add(sku);
        }
        String xid = "127.0.0.1:8091:" + System.nanoTime();
        int reservations = 1200;
        for (int i = 0; i < reservations; i++) {
            if (i % 5 == 1) {
                ledger.insert(xid, "g-" + i, 1, skus.get(i % 3), 1, "TRIED", "REDIS", "u-" + i);
            } else if (i % 97 == 0) {
                // the MySQL store's Try held it too; Redis's phase settles it on the general path
                ledger.insert(xid, "g-" + i, 1, skus.get(i % 3), 1, "TRIED", "MYSQL", "u-" + i);
            }
        }
        // a sales record of the test's own, as the service's is built, over a transaction manager that counts the
        // transactions it commits: the service's background work and the coordinator do not count
        CountingTransactions counted = new CountingTransactions(transactions);
        SalesGroups ownGroups = new SalesGroups(groupRows, skuStock, counted, groupCommit, new SimpleMeterRegistry());
        SalesRecord ownSales = new SalesRecord(skuStock, ledger, jdbc, counted, ownGroups);
        List<Callable<Object>> work = new ArrayList<>();
        for (int i = 0; i < reservations; i++) {
            String reservation = "g-" + i;
            String sku = skus.get(i % 3);
            long units = 1;
            boolean confirm = i % 6 != 0;
            work.add(() -> {
                for (int call = 0; call < 2; call++) {
                    if (confirm) {
                        ownSales.confirmed(xid, reservation, 1, sku, units, "u-" + reservation);
                    } else {
                        ownSales.cancelled(xid, reservation, 1, sku, units, "u-" + reservation);
                    }
                }
                return null;
            });
        }
        Collections.shuffle(work);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            for (Future<Object> done : pool.invokeAll(work)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
            ownGroups.destroy();
        }
        long commits = counted.commits.get();

        long[] sold = new long[3];
        for (int i = 0; i < reservations; i++) {
            boolean confirm = i % 6 != 0;
            assertThat(ledger.state(xid, "g-" + i, skus.get(i % 3))).as("reservation g-%d", i)
                    .isEqualTo(confirm ? "CONFIRMED" : "CANCELLED");
            if (confirm) {
                sold[i % 3]++;
            }
        }
        for (int s = 0; s < 3; s++) {
            assertThat(jdbc.queryForObject("SELECT sold FROM sku_stock WHERE sku_id = ?", Long.class, skus.get(s)))
                    .as("sold of %s", skus.get(s)).isEqualTo(sold[s]);
            assertThat(ledger.confirmedUnits(skus.get(s))).isEqualTo(sold[s]);
        }
        // 2,400 phases, each with a MySQL step; one transaction each would be 2,400 commits
        assertThat(commits).as("commits for 2,400 phases").isPositive().isLessThan(2400 / 3);
    }

    /** The real transaction manager, counting the transactions it committed (not joined ones, not rollbacks). */
    private static final class CountingTransactions implements PlatformTransactionManager {

        private final PlatformTransactionManager real;
        private final AtomicLong commits = new AtomicLong();

        CountingTransactions(PlatformTransactionManager real) {
            this.real = real;
        }

        @Override
        public TransactionStatus getTransaction(TransactionDefinition definition) {
            return real.getTransaction(definition);
        }

        @Override
        public void commit(TransactionStatus status) {
            boolean counts = status.isNewTransaction() && !status.isRollbackOnly();
            real.commit(status);
            if (counts) {
                commits.incrementAndGet();
            }
        }

        @Override
        public void rollback(TransactionStatus status) {
            real.rollback(status);
        }
    }
}
