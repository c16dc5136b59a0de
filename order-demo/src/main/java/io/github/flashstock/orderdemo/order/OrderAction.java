package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/**
 * The order branch of a global transaction: ordinary database work, fenced by its own order row ({@link OrderGroups}):
 * each phase is idempotent, a rollback that arrives before the Try is an empty rollback, recorded, and that Try is
 * refused afterwards. Seata's fence log is not used: it would add a row to every Try and an update to every phase,
 * and keep each phase in a transaction of its own, where the order's row lets concurrent phases share one.
 */
@LocalTCC
public interface OrderAction {

    String NAME = "order-placement";

    /** Try: records the order and its lines as PENDING; fails when the order id is taken. */
    @TwoPhaseBusinessAction(name = NAME, commitMethod = "confirm", rollbackMethod = "cancel", useTCCFence = false)
    boolean open(BusinessActionContext context,
                 @BusinessActionContextParameter(paramName = "orderId") String orderId,
                 String userId, List<OrderItem> items);

    /** Confirm: PENDING to CONFIRMED; false when the order of this transaction was cancelled. */
    boolean confirm(BusinessActionContext context);

    /** Cancel: PENDING to CANCELLED, or an empty rollback recorded when its Try has not run; false when confirmed. */
    boolean cancel(BusinessActionContext context);
}
