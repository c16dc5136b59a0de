package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/**
 * The order branch of a global transaction: ordinary database work, so Seata's own TCC fence
 * ({@code tcc_fence_log}, written in the same local transaction as the order) makes each phase idempotent, turns a
 * rollback that arrives before the Try into an empty rollback, and refuses that Try afterwards.
 */
@LocalTCC
public interface OrderAction {

    String NAME = "order-placement";

    /** Try: records the order and its lines as PENDING. */
    @TwoPhaseBusinessAction(name = NAME, commitMethod = "confirm", rollbackMethod = "cancel", useTCCFence = true)
    boolean open(BusinessActionContext context,
                 @BusinessActionContextParameter(paramName = "orderId") String orderId,
                 String userId, List<OrderItem> items);

    /** Confirm: PENDING to CONFIRMED. */
    boolean confirm(BusinessActionContext context);

    /** Cancel: PENDING to CANCELLED. */
    boolean cancel(BusinessActionContext context);
}
