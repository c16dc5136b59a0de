package io.github.flashstock.orderdemo.order;

import io.github.flashstock.support.Coalescer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order branch's writes, and its fence. The order's own row fences its phases: the Try inserts it {@code PENDING}
 * under the transaction's XID, and Confirm and Cancel move only a {@code PENDING} row of their own XID, so each phase
 * is idempotent and a phase of another transaction (a second placement under the same Idempotency-Key) changes
 * nothing. A Cancel that finds no order at all overtook its Try: it records that (an empty rollback) in
 * {@code order_fence} under its XID, and the Try of that transaction, if it still comes, finds the record and is
 * refused. The record names the transaction, not the order, so a later transaction of the same placement (order-demo
 * places an order again when the coordinator failed to answer its branch registration) is not refused.
 *
 * <p>Group commit: Tries that arrive together share one transaction (their orders and lines inserted by one
 * statement each, one commit), and so do Confirms (one update for the group, one commit). Gathered by a
 * {@link Coalescer}: no timer, at most {@link OrderGroupCommit#inFlight()} transactions under way per phase, at most
 * {@link OrderGroupCommit#maxBatch()} orders in one. A group whose transaction fails is rolled back whole and its
 * orders are written again one by one, so that only the order causing the failure (a key taken) fails. Rows are
 * written in order-id order, so concurrent groups lock in one order. Cancels, which are rare, go alone.
 */
@Component
@EnableConfigurationProperties(OrderGroupCommit.class)
class OrderGroups implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(OrderGroups.class);

    /** A Try: the order to write PENDING under {@code xid}, its lines (merged, in order). */
    record Opening(String orderId, String userId, String xid, List<OrderItem> items) {
    }

    /** A Confirm of the order placed under {@code xid}. */
    record Confirming(String orderId, String xid) {
    }

    /** One line as the group's insert writes it. */
    record Line(String orderId, int lineNo, String skuId, int quantity) {
    }

    private static final Comparator<Opening> OPENING_ORDER = Comparator.comparing(Opening::orderId);

    private final OrderMapper orders;
    private final TransactionTemplate transactions;
    private final TransactionTemplate cancelling;
    private final Coalescer<Opening, Boolean> opens;
    private final Coalescer<Confirming, Boolean> confirms;

    OrderGroups(OrderMapper orders, PlatformTransactionManager transactions, OrderGroupCommit settings,
                MeterRegistry meters) {
        this.orders = orders;
        this.transactions = new TransactionTemplate(transactions);
        this.cancelling = new TransactionTemplate(transactions);
        this.cancelling.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.opens = coalescer("open", settings, this::openGroup, meters);
        this.confirms = coalescer("confirm", settings, this::confirmGroup, meters);
    }

    private static <Q> Coalescer<Q, Boolean> coalescer(String phase, OrderGroupCommit settings,
                                                        Coalescer.BatchRunner<Q, Boolean> runner,
                                                        MeterRegistry meters) {
        DistributionSummary sizes = DistributionSummary.builder("orders.group-commit.size")
                .description("orders whose phase one transaction of the order branch took")
                .tag("phase", phase)
                .register(meters);
        return new Coalescer<>("the order " + phase + " group commit", "order-" + phase + "-group", settings.gathering(),
                runner, request -> phase, e -> e instanceof DataAccessResourceFailureException,
                (request, maxWait) -> new QueryTimeoutException("the order " + phase + " waited longer than " + maxWait
                        + " for its transaction"),
                sizes::record);
    }

    /**
     * Writes the order {@code PENDING} with its lines; returns once its transaction committed.
     *
     * @throws org.springframework.dao.DuplicateKeyException the order id is taken (another placement under the same
     *                                                       key)
     * @throws SuspendedTry                                  this transaction's Cancel came first
     */
    void open(Opening opening) {
        opens.submit(opening);
    }

    /** @return true once the order of this XID is CONFIRMED (now or before); false when it is CANCELLED */
    boolean confirm(Confirming confirming) {
        return confirms.submit(confirming);
    }

    /**
     * Moves the order of this XID from PENDING to CANCELLED, or, when there is no order of that id at all, records
     * the empty rollback so that this transaction's late Try is refused. Runs in repeatable read: the locking read
     * of an order that does not exist locks the gap where it would be, so a Try inserting it waits for this Cancel to
     * commit and then finds its record.
     *
     * @return false when the order of this XID is CONFIRMED (a rollback cannot undo a commit); true otherwise
     */
    boolean cancel(String orderId, String xid) {
        return Boolean.TRUE.equals(cancelling.execute(status -> {
            OrderMapper.PhaseRow row = orders.lockForCancel(orderId);
            if (row == null) {
                orders.fence(xid, orderId);
                log.info("order {}: the Cancel of transaction {} came before its Try; that Try will be refused",
                        orderId, xid);
                return true;
            }
            if (!xid.equals(row.xid())) {
                log.info("order {} belongs to transaction {}, not to {}: that Cancel has nothing to undo", orderId,
                        row.xid(), xid);
                return true;
            }
            if (OrderStatus.CONFIRMED.name().equals(row.status())) {
                log.warn("order {} of transaction {} is CONFIRMED: its Cancel cannot undo that", orderId, xid);
                return false;
            }
            orders.cancelOwn(orderId, xid); // 0 rows when CANCELLED already: a replay
            return true;
        }));
    }

    private List<Boolean> openGroup(List<Opening> group) {
        List<Opening> sorted = group.stream().sorted(OPENING_ORDER).toList();
        List<Line> lines = new ArrayList<>();
        for (Opening o : sorted) {
            for (int i = 0; i < o.items().size(); i++) {
                lines.add(new Line(o.orderId(), i + 1, o.items().get(i).skuId(), o.items().get(i).quantity()));
            }
        }
        transactions.executeWithoutResult(status -> {
            if (orders.insertPendingAll(sorted) != sorted.size()) {
                throw new IllegalStateException("the group's orders were not all written");
            }
            if (!lines.isEmpty() && orders.insertLines(lines) != lines.size()) {
                throw new IllegalStateException("the group's order lines were not all written");
            }
            // after the inserts: a Cancel that came first either committed its record already, or holds the gap
            // the insert waited for until it had
            List<String> fenced = orders.fenced(sorted);
            if (!fenced.isEmpty()) {
                throw new SuspendedTry(fenced);
            }
        });
        return Collections.nCopies(group.size(), true);
    }

    private List<Boolean> confirmGroup(List<Confirming> group) {
        List<Confirming> sorted = group.stream().sorted(Comparator.comparing(Confirming::orderId)).toList();
        return transactions.execute(status -> {
            if (orders.confirmAll(sorted) == group.size()) {
                return Collections.nCopies(group.size(), true);
            }
            // some were not PENDING: replays (CONFIRMED already), or rare cases, each answered from its row
            Map<String, OrderMapper.PhaseRow> rows = new HashMap<>();
            orders.phaseRows(sorted.stream().map(Confirming::orderId).distinct().toList())
                    .forEach(row -> rows.put(row.orderId(), row));
            List<Boolean> answers = new ArrayList<>(group.size());
            for (Confirming c : group) {
                OrderMapper.PhaseRow row = rows.get(c.orderId());
                if (row == null || !c.xid().equals(row.xid())) {
                    log.warn("order {}: no order of transaction {} to confirm", c.orderId(), c.xid());
                    answers.add(true);
                } else if (OrderStatus.CANCELLED.name().equals(row.status())) {
                    log.warn("order {} of transaction {} is CANCELLED: its Confirm cannot undo that", c.orderId(),
                            c.xid());
                    answers.add(false);
                } else {
                    answers.add(true);
                }
            }
            return answers;
        });
    }

    /** A Try of a transaction whose Cancel came first (an empty rollback): refused, nothing of it written. */
    static final class SuspendedTry extends RuntimeException {
        SuspendedTry(List<String> xids) {
            super("the Try of transaction(s) " + xids + " came after their Cancel; refused, nothing written");
        }
    }

    @Override
    public void destroy() {
        opens.close();
        confirms.close();
    }
}
