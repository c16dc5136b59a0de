package io.github.flashstock.orderdemo.order;

import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryClient;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.inventory.ReservationItem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.spring.annotation.GlobalTransactional;
import org.apache.seata.tm.api.transaction.Propagation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Places an order: one Seata global transaction with two branches, the order (TCC with Seata's fence, in this
 * service's database) and the stock reservation (the inventory service's TCC branch, reached over HTTP with the XID
 * in header {@code TX_XID}). Any exception rolls both back; returning normally commits both.
 */
@Service
public class PlacingOrders {

    private static final Logger log = LoggerFactory.getLogger(PlacingOrders.class);

    private final OrderAction orderAction;
    private final InventoryClient inventory;
    private final OrderLimits limits;
    private final SoldOutCheck soldOut;
    private final OrderMapper orders;
    private final TransactionTemplate local;

    PlacingOrders(OrderAction orderAction, InventoryClient inventory, OrderLimits limits, SoldOutCheck soldOut,
                  OrderMapper orders, PlatformTransactionManager transactions) {
        this.orderAction = orderAction;
        this.inventory = inventory;
        this.limits = limits;
        this.soldOut = soldOut;
        this.orders = orders;
        this.local = new TransactionTemplate(transactions);
    }

    /**
     * Refuses the order without a global transaction when one of its SKUs sold out ({@link SoldOutCheck}): the
     * order is recorded CANCELLED (no xid), as a refused order placed in a transaction ends, and the refusal thrown.
     * Returns when the order should be placed.
     *
     * @throws InventoryRefused insufficient stock, as the inventory's Try would have answered
     */
    public void refuseIfSoldOut(String orderId, String userId, List<OrderItem> items) {
        List<OrderItem> merged = merge(items);
        Optional<InventoryRefused> refusal = soldOut.refusal(merged);
        if (refusal.isEmpty()) {
            return;
        }
        local.executeWithoutResult(status -> {
            orders.insertRefused(orderId, userId);
            for (int i = 0; i < merged.size(); i++) {
                orders.insertLine(orderId, i + 1, merged.get(i).skuId(), merged.get(i).quantity());
            }
        });
        throw refusal.get();
    }

    /**
     * Checks the order against the live limits, before any transaction is opened.
     *
     * @throws OrderLimitExceeded when it holds too many units
     */
    public void check(List<OrderItem> items) {
        int units = items.stream().mapToInt(OrderItem::quantity).sum();
        if (units > limits.getMaxUnitsPerOrder()) {
            throw new OrderLimitExceeded(limits.getMaxUnitsPerOrder(), units);
        }
        if (items.size() > limits.getMaxLines()) {
            throw new OrderLimitExceeded(limits.getMaxLines(), items.size());
        }
    }

    /**
     * How far one call of {@link #place} got, for its caller to tell whether a failure left anything behind: the
     * global transaction began (its body ran), and the order's own branch opened (its Try wrote the PENDING row).
     * Until then nothing of the order exists anywhere but, at most, an empty global session the coordinator rolls
     * back, so the order may be placed again in a new one.
     */
    public static final class Progress {

        private volatile boolean began;
        private volatile boolean opened;

        public boolean began() {
            return began;
        }

        public boolean opened() {
            return opened;
        }

        public void markBegan() {
            began = true;
        }

        public void markOpened() {
            opened = true;
        }
    }

    /**
     * @param progress marked as the placement goes (see {@link Progress})
     * @return the XID of the global transaction that placed the order (committed when this returns)
     * @throws io.github.flashstock.orderdemo.inventory.InventoryRefused    stock refused; everything rolled back
     * @throws io.github.flashstock.orderdemo.inventory.InventoryUnavailable inventory unreachable; rolled back
     */
    // no timeoutMills: Seata then takes seata.client.tm.default-global-transaction-timeout (application.yml, 30 s),
    // after which the coordinator rolls back a transaction still open. REQUIRES_NEW: an order always begins its own
    // global transaction, never one that something bound to the thread before (no request binds one: Seata's HTTP
    // interceptor is off, application.yml), so that no caller can make an order join a transaction it names
    @GlobalTransactional(name = "place-order", propagation = Propagation.REQUIRES_NEW)
    public String place(String orderId, String userId, List<OrderItem> items, Fault fault, Progress progress) {
        progress.markBegan();
        String xid = RootContext.getXID();
        List<OrderItem> merged = merge(items);
        orderAction.open(null, orderId, userId, merged);
        progress.markOpened();
        try {
            inventory.reserve(orderId, userId,
                    merged.stream().map(i -> new ReservationItem(i.skuId(), i.quantity())).toList(),
                    fault.is(Fault.Kind.LOSE_FIRST_RESERVE_RESPONSE));
        } catch (InventoryRefused e) {
            soldOut.refused(e);
            throw e;
        }
        if (fault.is(Fault.Kind.FAIL_AFTER_RESERVE)) {
            throw new Faults.InjectedFailure("injected failure after the inventory Try of order " + orderId);
        }
        if (fault.is(Fault.Kind.DELAY_AFTER_RESERVE)) {
            log.warn("injected delay of {} after the inventory Try of order {} (xid {})", fault.delay(), orderId, xid);
            try {
                Thread.sleep(fault.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Faults.InjectedFailure("interrupted during the injected delay");
            }
        }
        return xid;
    }

    /** Lines for the same SKU become one, in first-seen order. */
    public static List<OrderItem> merge(List<OrderItem> items) {
        Map<String, Integer> units = new LinkedHashMap<>();
        items.forEach(i -> units.merge(i.skuId(), i.quantity(), Integer::sum));
        return units.entrySet().stream().map(e -> new OrderItem(e.getKey(), e.getValue())).toList();
    }
}
