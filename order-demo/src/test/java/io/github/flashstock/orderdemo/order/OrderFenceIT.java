package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.orderdemo.GlobalTransactions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seata.common.exception.SkipCallbackWrapperException;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.core.exception.TransactionException;
import org.apache.seata.core.model.BranchStatus;
import org.apache.seata.core.model.BranchType;
import org.apache.seata.integration.tx.api.fence.DefaultCommonFenceHandler;
import org.apache.seata.integration.tx.api.fence.exception.CommonFenceException;
import org.apache.seata.rm.DefaultResourceManager;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The order branch's TCC fence ({@code useTCCFence = true}, configured by {@link TccFenceConfiguration} because
 * Seata's own auto-configuration does not load on Spring Boot 4), through the real TC and the orders database: a
 * commit and a rollback leave the fence log committed / rolled back, a Cancel that arrives before its Try leaves it
 * suspended and the late Try is refused, and a phase delivered again changes nothing.
 */
@DevStackTest({Component.MARIADB, Component.SEATA})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("devstack")
class OrderFenceIT {

    /** Seata's fence states in {@code tcc_fence_log.status}. */
    private static final int TRIED = 1;
    private static final int COMMITTED = 2;
    private static final int ROLLBACKED = 3;
    private static final int SUSPENDED = 4;

    @Autowired
    OrderAction orders;

    @Autowired
    JdbcTemplate jdbc;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        Endpoints e = SharedStack.endpoints();
        registry.add("spring.datasource.url", () -> e.jdbcUrl("orders"));
        registry.add("spring.datasource.username", () -> e.dbUser("orders"));
        registry.add("spring.datasource.password", e::dbPassword);
        registry.add("seata.service.grouplist.default", e::seataAddress);
    }

    @Test
    void aCommitConfirmsTheOrderAndLeavesTheFenceCommitted() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(true, x -> {
            orders.open(null, orderId, "fence-user", List.of(new OrderItem("fence-sku", 2)));
            assertThat(fence(x)).as("between Try and commit").containsExactly(TRIED);
        });

        awaitStatus(orderId, "CONFIRMED");
        assertThat(fence(xid)).containsExactly(COMMITTED);
    }

    @Test
    void aRollbackCancelsTheOrderAndLeavesTheFenceRolledBack() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(false,
                x -> orders.open(null, orderId, "fence-user", List.of(new OrderItem("fence-sku", 1))));

        awaitStatus(orderId, "CANCELLED");
        assertThat(fence(xid)).containsExactly(ROLLBACKED);
    }

    @Test
    void aCancelBeforeItsTryIsAnEmptyRollbackAndTheLateTryIsRefused() throws TransactionException {
        String orderId = newOrderId();
        AtomicLong registered = new AtomicLong();
        // the branch the Try would have registered, with the context Seata's TCC interceptor records, and no Try
        // run: the TC's rollback reaches the Cancel first (as when the Try is slow on the network)
        String xid = inGlobalTransaction(false, x -> registered.set(DefaultResourceManager.get().branchRegister(
                BranchType.TCC, OrderAction.NAME, null, x, "{\"actionContext\":{\"orderId\":\"" + orderId
                        + "\",\"useTCCFence\":true,\"sys::prepare\":\"open\",\"sys::commit\":\"confirm\","
                        + "\"sys::rollback\":\"cancel\",\"action-start-time\":" + System.currentTimeMillis() + "}}",
                null)));
        long branchId = registered.get();

        awaitFence(xid, branchId, SUSPENDED);
        assertThat(jdbc.queryForList("SELECT order_id FROM orders WHERE order_id = ?", orderId)).isEmpty();

        // the Try arriving now, through the fence exactly as the interceptor calls it: refused, nothing written
        AtomicBoolean ran = new AtomicBoolean();
        assertThatThrownBy(() -> DefaultCommonFenceHandler.get().prepareFence(xid, branchId,
                OrderAction.NAME, () -> {
                    ran.set(true);
                    return true;
                })).isInstanceOfAny(SkipCallbackWrapperException.class, CommonFenceException.class);
        assertThat(ran).as("the late Try's body").isFalse();
        assertThat(jdbc.queryForList("SELECT order_id FROM orders WHERE order_id = ?", orderId)).isEmpty();
        // (Seata then queues the suspended record for deletion: the transaction is over on both sides)
    }

    @Test
    void aPhaseDeliveredAgainChangesNothing() throws TransactionException {
        String orderId = newOrderId();
        String xid = inGlobalTransaction(true,
                x -> orders.open(null, orderId, "fence-user", List.of(new OrderItem("fence-sku", 1))));
        awaitStatus(orderId, "CONFIRMED");
        Map<String, Object> row = jdbc.queryForMap("SELECT branch_id, gmt_modified FROM tcc_fence_log WHERE xid = ?",
                xid);
        long branchId = ((Number) row.get("branch_id")).longValue();
        String context = "{\"actionContext\":{\"orderId\":\"" + orderId + "\",\"useTCCFence\":true}}";

        // the TC retrying a commit whose answer it did not get, and a stray rollback after it
        BranchStatus again = DefaultResourceManager.get().branchCommit(BranchType.TCC, xid, branchId,
                OrderAction.NAME, context);
        BranchStatus stray = DefaultResourceManager.get().branchRollback(BranchType.TCC, xid, branchId,
                OrderAction.NAME, context);

        assertThat(again).isEqualTo(BranchStatus.PhaseTwo_Committed);
        assertThat(stray).as("a rollback cannot undo a commit").isNotEqualTo(BranchStatus.PhaseTwo_Rollbacked);
        assertThat(status(orderId)).isEqualTo("CONFIRMED");
        assertThat(jdbc.queryForMap("SELECT branch_id, gmt_modified FROM tcc_fence_log WHERE xid = ?", xid))
                .as("the fence record is untouched").isEqualTo(row);
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
        return jdbc.queryForObject("SELECT status FROM orders WHERE order_id = ?", String.class, orderId);
    }

    private List<Integer> fence(String xid) {
        return jdbc.queryForList("SELECT status FROM tcc_fence_log WHERE xid = ? ORDER BY branch_id", Integer.class,
                xid);
    }

    /** The TC answers the TM once every branch has finished; the wait only covers a slow machine. */
    private void awaitStatus(String orderId, String expected) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(status(orderId)).isEqualTo(expected));
    }

    private void awaitFence(String xid, long branchId, int expected) {
        String sql = "SELECT status FROM tcc_fence_log WHERE xid = ? AND branch_id = ?";
        List<Integer> row = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> jdbc.queryForList(sql, Integer.class, xid, branchId), rows -> !rows.isEmpty());
        assertThat(row).containsExactly(expected);
    }
}
