package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/**
 * The order branch of a global transaction: ordinary database work whose own row is its fence ({@link OrderGroups}):
 * each phase is idempotent, a rollback that arrives before the Try is an empty rollback that leaves the order
 * CANCELLED, and that Try is refused afterwards. Seata's fence log is not used: it would add a row to every Try and an
 * update to every phase, and keep each phase in a transaction of its own, where the order's row lets concurrent
 * phases share one.
 */
@LocalTCC
public interface OrderAction {

    String NAME = "order-placement";

    /** Try: records the order and its lines as PENDING; fails when the order id is taken. */
    @TwoPhaseBusinessAction(name = NAME, commitMethod = "confirm", rollbackMethod = "cancel", useTCCFence = false)
    boolean open(BusinessActionContext context,
                 @BusinessActionContextParameter(paramName = "orderId") String orderId,
                 @BusinessActionContextParameter(paramName = "userId") String userId,
                 List<OrderItem> items);

    /** Confirm: PENDING to CONFIRMED; false when the order of this transaction was cancelled. */
    boolean confirm(BusinessActionContext context);

    /** Cancel: PENDING to CANCELLED, or the order written CANCELLED when its Try has not run; false when confirmed. */
    boolean cancel(BusinessActionContext context);
}
