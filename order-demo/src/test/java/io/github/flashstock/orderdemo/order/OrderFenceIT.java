package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.orderdemo.GlobalTransactions;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.core.exception.TransactionException;
import org.apache.seata.core.model.BranchStatus;
import org.apache.seata.core.model.BranchType;
import org.apache.seata.rm.DefaultResourceManager;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The order branch's fence, its own order row ({@link OrderGroups}), through the real TC and the orders database: a
 * commit confirms the order and a rollback cancels it, a Cancel that arrives before its Try is recorded and the late
 * Try refused, without refusing a later transaction of the same placement, a phase delivered again changes nothing, a
 * Confirm cannot undo a Cancel nor a Cancel a Confirm; and on many threads, Tries and Confirms share transactions, a taken order id fails only its own
 * Try, and a Cancel racing its Try never leaves an order PENDING.
 */
@DevStackTest({Component.MARIADB, Component.SEATA})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("devstack")
class OrderFenceIT {

    private static final List<OrderItem> ITEMS = List.of(new OrderItem("fence-sku", 2), new OrderItem("fence-2", 1));

    @Autowired
    OrderAction orders;

    @Autowired
    OrderGroups groups;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        Endpoints e = SharedStack.endpoints();
        registry.add("spring.datasource.url", () -> e.jdbcUrl("orders"));
        registry.add("spring.datasource.username", () -> e.dbUser("orders"));
        registry.add("spring.datasource.password", e::dbPassword);
        registry.add("seata.service.grouplist.default", e::seataAddress);
    }

    @Test
    void aCommitConfirmsTheOrder() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(true, x -> {
            orders.open(null, orderId, "fence-user", ITEMS);
            assertThat(status(orderId)).as("between Try and commit").isEqualTo("PENDING");
        });

        awaitStatus(orderId, "CONFIRMED");
        assertThat(jdbc.queryForObject("SELECT xid FROM orders WHERE order_id = ?", String.class, orderId))
                .isEqualTo(xid);
        assertThat(lines(orderId)).isEqualTo(2);
    }

    @Test
    void aRollbackCancelsTheOrderAndKeepsItsLines() throws TransactionException {
        String orderId = newOrderId();
        inGlobalTransaction(false, x -> orders.open(null, orderId, "fence-user", ITEMS));

        awaitStatus(orderId, "CANCELLED");
        assertThat(lines(orderId)).isEqualTo(2);
    }

    @Test
    void aCancelBeforeItsTryIsRecordedAndTheLateTryIsRefused() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(false, x -> registerWithoutTry(x, orderId));

        awaitFenced(xid, orderId);
        assertThat(status(orderId)).as("no order is written for an empty rollback").isNull();

        // the Try arriving now, with the transaction's XID: refused, nothing written
        assertThatThrownBy(() -> groups.open(new OrderGroups.Opening(orderId, "fence-user", xid, ITEMS)))
                .isInstanceOf(OrderGroups.SuspendedTry.class);
        assertThat(status(orderId)).isNull();
        assertThat(lines(orderId)).isZero();
    }

    /**
     * The coordinator registered the order branch of a first transaction but its answer was lost (a TC died), so
     * the placement went on in a second transaction; the first one's rollback reached the branch before any Try. The
     * record of that empty rollback names the first transaction only: the second one places the order; the first
     * one's late Try is still refused.
     */
    @Test
    void anEmptyRollbackDoesNotRefuseALaterTransactionOfTheSamePlacement() throws TransactionException {
        String orderId = newOrderId();
        String abandoned = inGlobalTransaction(false, x -> registerWithoutTry(x, orderId));
        awaitFenced(abandoned, orderId);

        String placed = inGlobalTransaction(true, x -> orders.open(null, orderId, "fence-user", ITEMS));

        awaitStatus(orderId, "CONFIRMED");
        assertThat(jdbc.queryForObject("SELECT xid FROM orders WHERE order_id = ?", String.class, orderId))
                .isEqualTo(placed);
        assertThat(lines(orderId)).isEqualTo(2);
        assertThatThrownBy(() -> groups.open(new OrderGroups.Opening(orderId, "fence-user", abandoned, ITEMS)))
                .as("the abandoned transaction's late Try")
                .isInstanceOfAny(OrderGroups.SuspendedTry.class, DuplicateKeyException.class);
        assertThat(status(orderId)).isEqualTo("CONFIRMED");
        assertThat(lines(orderId)).isEqualTo(2);
    }

    @Test
    void aPhaseDeliveredAgainChangesNothing() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(true, x -> orders.open(null, orderId, "fence-user", ITEMS));
        awaitStatus(orderId, "CONFIRMED");
        Map<String, Object> row = jdbc.queryForMap("SELECT * FROM orders WHERE order_id = ?", orderId);
        String context = "{\"actionContext\":{\"orderId\":\"" + orderId + "\"}}";

        // the TC retrying a commit whose answer it did not get, and a stray rollback after it (the fence keys on the
        // order and its XID; the branch id plays no part in it)
        BranchStatus again = DefaultResourceManager.get().branchCommit(BranchType.TCC, xid, 1L, OrderAction.NAME,
                context);
        BranchStatus stray = DefaultResourceManager.get().branchRollback(BranchType.TCC, xid, 1L, OrderAction.NAME,
                context);

        assertThat(again).isEqualTo(BranchStatus.PhaseTwo_Committed);
        assertThat(stray).as("a rollback cannot undo a commit").isNotEqualTo(BranchStatus.PhaseTwo_Rollbacked);
        assertThat(jdbc.queryForMap("SELECT * FROM orders WHERE order_id = ?", orderId)).as("the row is untouched")
                .isEqualTo(row);
    }

    @Test
    void aPhaseOfAnotherTransactionOrAgainstTheOutcomeChangesNothing() {
        String cancelled = newOrderId();
        String confirmed = newOrderId();
        groups.open(new OrderGroups.Opening(cancelled, "u", "xid-a-" + cancelled, ITEMS));
        groups.open(new OrderGroups.Opening(confirmed, "u", "xid-b-" + confirmed, ITEMS));

        assertThat(groups.cancel(cancelled, "xid-a-" + cancelled)).isTrue();
        assertThat(groups.confirm(new OrderGroups.Confirming(confirmed, "xid-b-" + confirmed))).isTrue();
        // a second placement under the same key, whose Try found it taken, is rolled back: not its order
        assertThat(groups.cancel(confirmed, "xid-other")).isTrue();
        assertThat(groups.confirm(new OrderGroups.Confirming(cancelled, "xid-other"))).isTrue();
        // and the phases against the outcome are refused (the coordinator never sends them)
        assertThat(groups.confirm(new OrderGroups.Confirming(cancelled, "xid-a-" + cancelled))).isFalse();
        assertThat(groups.cancel(confirmed, "xid-b-" + confirmed)).isFalse();

        assertThat(status(cancelled)).isEqualTo("CANCELLED");
        assertThat(status(confirmed)).isEqualTo("CONFIRMED");
    }

    /**
     * 300 orders through the real TC from 32 threads, every fifth with a second placement under the same order id
     * at the same time: each id is written by exactly one Try, the others fail alone, every committed order ends
     * CONFIRMED with its lines, and the Tries and Confirms shared transactions.
     */
    @Test
    void concurrentPlacementsShareTransactionsAndATakenIdFailsOnlyItsOwnTry() throws Exception {
        DistributionSummary opens = meters.get("orders.group-commit.size").tag("phase", "open").summary();
        DistributionSummary confirms = meters.get("orders.group-commit.size").tag("phase", "confirm").summary();
        long openCallsBefore = opens.count();
        double openedBefore = opens.totalAmount();
        long confirmCallsBefore = confirms.count();
        double confirmedBefore = confirms.totalAmount();

        int orderCount = 300;
        List<String> ids = new ArrayList<>();
        List<Callable<Boolean>> work = new ArrayList<>();
        for (int i = 0; i < orderCount; i++) {
            String orderId = newOrderId();
            ids.add(orderId);
            int copies = i % 5 == 0 ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                work.add(() -> {
                    GlobalTransaction tx = GlobalTransactions.begin("order-fence-it", Duration.ofSeconds(60));
                    try {
                        try {
                            orders.open(null, orderId, "fence-user", ITEMS);
                        } catch (RuntimeException taken) {
                            tx.rollback();
                            return false;
                        }
                        tx.commit();
                        return true;
                    } finally {
                        RootContext.unbind();
                    }
                });
            }
        }
        Collections.shuffle(work);
        AtomicInteger placed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            for (Future<Boolean> done : pool.invokeAll(work)) {
                if (done.get()) {
                    placed.incrementAndGet();
                }
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(placed.get()).as("one placement per order id").isEqualTo(orderCount);
        for (String orderId : ids) {
            awaitStatus(orderId, "CONFIRMED");
            assertThat(lines(orderId)).isEqualTo(2);
        }
        long openCalls = opens.count() - openCallsBefore;
        long confirmCalls = confirms.count() - confirmCallsBefore;
        assertThat(opens.totalAmount() - openedBefore).as("Tries written (a failed group's again alone)")
                .isGreaterThanOrEqualTo(orderCount);
        assertThat(confirms.totalAmount() - confirmedBefore).isEqualTo(orderCount);
        assertThat(openCalls).as("transactions for the Tries").isLessThan(work.size());
        assertThat(confirmCalls).as("transactions for %d Confirms", orderCount).isLessThan(orderCount);
    }

    /**
     * The rollback's Cancel racing its Try on 200 orders, 32 threads: whichever wins, the order is never left PENDING.
     * When the Try came first the order ends CANCELLED with its lines; when the Cancel did, its empty rollback is
     * recorded, the Try refused and no order written.
     */
    @Test
    void aCancelRacingItsTryNeverLeavesTheOrderPending() throws Exception {
        int orderCount = 200;
        List<String> ids = new ArrayList<>();
        Set<String> refused = ConcurrentHashMap.newKeySet();
        List<Callable<Object>> work = new ArrayList<>();
        for (int i = 0; i < orderCount; i++) {
            String orderId = newOrderId();
            String xid = "race-" + orderId;
            ids.add(orderId);
            work.add(() -> {
                try {
                    groups.open(new OrderGroups.Opening(orderId, "race-user", xid, ITEMS));
                } catch (OrderGroups.SuspendedTry tooLate) {
                    refused.add(orderId);
                }
                return null;
            });
            work.add(() -> groups.cancel(orderId, xid));
        }
        Collections.shuffle(work);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            for (Future<Object> done : pool.invokeAll(work)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }

        for (String orderId : ids) {
            boolean fenced = !jdbc.queryForList("SELECT xid FROM order_fence WHERE xid = ? AND order_id = ?",
                    String.class, "race-" + orderId, orderId).isEmpty();
            if (refused.contains(orderId)) {
                assertThat(status(orderId)).as("order of a refused Try %s", orderId).isNull();
                assertThat(lines(orderId)).isZero();
                assertThat(fenced).as("empty rollback of %s recorded", orderId).isTrue();
            } else {
                assertThat(status(orderId)).as(orderId).isEqualTo("CANCELLED");
                assertThat(lines(orderId)).as("lines of %s", orderId).isEqualTo(2);
                assertThat(fenced).as("no empty rollback recorded for %s", orderId).isFalse();
            }
        }
    }

    /**
     * Registers the order branch as Seata's TCC interceptor would (the context it records), without running the
     * Try: the coordinator's rollback then reaches the Cancel first (as when the Try is slow, or the registration's
     * answer was lost).
     */
    private static void registerWithoutTry(String xid, String orderId) throws TransactionException {
        DefaultResourceManager.get().branchRegister(BranchType.TCC, OrderAction.NAME, null, xid,
                "{\"actionContext\":{\"orderId\":\"" + orderId + "\",\"sys::prepare\":\"open\","
                        + "\"sys::commit\":\"confirm\",\"sys::rollback\":\"cancel\",\"action-start-time\":"
                        + System.currentTimeMillis() + "}}", null);
    }

    /** The coordinator's rollback reaches the branch in its own time; the wait only covers a slow machine. */
    private void awaitFenced(String xid, String orderId) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> !jdbc.queryForList(
                "SELECT xid FROM order_fence WHERE xid = ? AND order_id = ?", String.class, xid, orderId).isEmpty());
    }

    /** What runs inside the global transaction, given its XID. */
    private interface InTransaction {
        void run(String xid) throws TransactionException;
    }

    /** Begins a global transaction, runs {@code work} in it, then commits or rolls back; returns the XID. */
    private static String inGlobalTransaction(boolean commit, InTransaction work) throws TransactionException {
        GlobalTransaction tx = GlobalTransactions.begin("order-fence-it", Duration.ofSeconds(30));
        try {
            work.run(tx.getXid());
            if (commit) {
                tx.commit();
            } else {
                tx.rollback();
            }
        } finally {
            RootContext.unbind();
        }
        return tx.getXid();
    }

    private static String newOrderId() {
        return "fence-" + UUID.randomUUID();
    }

    private String status(String orderId) {
        List<String> status = jdbc.queryForList("SELECT status FROM orders WHERE order_id = ?", String.class, orderId);
        return status.isEmpty() ? null : status.get(0);
    }

    private int lines(String orderId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM order_line WHERE order_id = ?", Integer.class, orderId);
    }

    /** The TC answers the TM once every branch has finished; the wait only covers a slow machine. */
    private void awaitStatus(String orderId, String expected) {
        // checked at once first: a test awaits hundreds of orders in turn, most of them final already
        await().atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(status(orderId)).isEqualTo(expected));
    }
}
