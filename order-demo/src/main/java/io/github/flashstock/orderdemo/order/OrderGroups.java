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
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order branch's writes, and its fence. The order's own row is the fence: the Try inserts it {@code PENDING}
 * under the transaction's XID, Confirm and Cancel move only a {@code PENDING} row of their own XID, and a Cancel that
 * finds no row at all (it overtook its Try) inserts the order {@code CANCELLED} in its place, so the late Try's insert
 * meets a taken key and fails. Each phase is therefore idempotent, an empty rollback is recorded and a suspended Try
 * refused, in the same statements that write the order. A Try of a later transaction of the same buyer's placement
 * takes such a row over ({@link #tookOverAbandoned}): the placement moved on to a new transaction after the
 * coordinator failed to answer the earlier one's branch registration.
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
    private final Coalescer<Opening, Boolean> opens;
    private final Coalescer<Confirming, Boolean> confirms;

    OrderGroups(OrderMapper orders, PlatformTransactionManager transactions, OrderGroupCommit settings,
                MeterRegistry meters) {
        this.orders = orders;
        this.transactions = new TransactionTemplate(transactions);
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
     * @throws org.springframework.dao.DuplicateKeyException the order id is taken: by another placement under the
     *                                                       same key, or by the Cancel that overtook this Try
     */
    void open(Opening opening) {
        opens.submit(opening);
    }

    /** @return true once the order of this XID is CONFIRMED (now or before); false when it is CANCELLED */
    boolean confirm(Confirming confirming) {
        return confirms.submit(confirming);
    }

    /**
     * Moves the order of this XID from PENDING to CANCELLED, or, when there is no order of that id at all, writes it
     * CANCELLED (no lines) so that its late Try is refused.
     *
     * @return false when the order of this XID is CONFIRMED (a rollback cannot undo a commit); true otherwise
     */
    boolean cancel(String orderId, String userId, String xid) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            orders.cancelOrFence(orderId, userId == null ? "" : userId, xid);
            OrderMapper.PhaseRow row = orders.phaseRows(List.of(orderId)).get(0);
            if (!xid.equals(row.xid())) {
                log.info("order {} belongs to transaction {}, not to {}: that Cancel has nothing to undo", orderId,
                        row.xid(), xid);
                return true;
            }
            if (OrderStatus.CONFIRMED.name().equals(row.status())) {
                log.warn("order {} of transaction {} is CONFIRMED: its Cancel cannot undo that", orderId, xid);
                return false;
            }
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
        try {
            transactions.executeWithoutResult(status -> {
                if (orders.insertPendingAll(sorted) != sorted.size()) {
                    throw new IllegalStateException("the group's orders were not all written");
                }
                writeLines(lines);
            });
        } catch (DuplicateKeyException taken) {
            if (group.size() > 1 || !tookOverAbandoned(group.get(0), lines)) {
                throw taken; // a group: its orders go again one by one, and only the taken one fails
            }
        }
        return Collections.nCopies(group.size(), true);
    }

    private void writeLines(List<Line> lines) {
        if (!lines.isEmpty() && orders.insertLines(lines) != lines.size()) {
            throw new IllegalStateException("order lines were not all written");
        }
    }

    /**
     * A Try whose order id is taken by the Cancel of another, abandoned transaction of the same buyer's placement:
     * the order row CANCELLED under that transaction's XID, with no lines (its Cancel overtook its Try). That happens
     * when the coordinator registered the order branch of an earlier transaction but its answer never came back
     * (a TC that died, a lost connection): the placement then goes on in a new transaction, as nothing of it was
     * written, while the coordinator rolls the earlier one back, and that Cancel, finding no order, wrote the row.
     * The new transaction's Try takes the row over: PENDING under its own XID, with its lines. A Try of the
     * transaction that wrote the row (the suspended Try) does not: that is the Try the row is there to refuse.
     *
     * @return true when the row was taken over; false when the key is taken otherwise
     */
    private boolean tookOverAbandoned(Opening opening, List<Line> lines) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            OrderMapper.PhaseRow row = orders.lockForTakeOver(opening.orderId());
            if (row == null || !OrderStatus.CANCELLED.name().equals(row.status()) || row.xid() == null
                    || row.xid().equals(opening.xid()) || orders.lineCount(opening.orderId()) > 0
                    || orders.takeOver(opening.orderId(), opening.userId(), row.xid(), opening.xid()) != 1) {
                return false;
            }
            writeLines(lines);
            log.info("order {}: its Try in transaction {} took over the row the Cancel of abandoned transaction {}"
                    + " wrote", opening.orderId(), opening.xid(), row.xid());
            return true;
        }));
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

    @Override
    public void destroy() {
        opens.close();
        confirms.close();
    }
}
