package io.github.flashstock.inventory.reservation;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/**
 * The inventory branch of a global transaction. Seata's database fence is off: the fence lives in Redis, inside
 * the same scripts that move stock (docs/design.md, "The fence"), so an empty rollback, a suspended Try and a replay are handled
 * where the stock is.
 */
@LocalTCC
public interface ReservationAction {

    String NAME = "inventory-reservation";

    /**
     * Try: reserves every line in Redis, all or nothing. Idempotent per (xid, reservation id), also across branches.
     * Seata records the reservation id, the user and the encoded lines in the branch's action context.
     *
     * @return true when reserved now or before
     * @throws TryRefused when the stock, the purchase limit or an earlier Cancel refuses it (nothing reserved)
     */
    @TwoPhaseBusinessAction(name = NAME, commitMethod = "confirm", rollbackMethod = "cancel", useTCCFence = false)
    boolean reserve(BusinessActionContext context,
                    @BusinessActionContextParameter(paramName = "reservationId") String reservationId,
                    @BusinessActionContextParameter(paramName = "userId") String userId,
                    @BusinessActionContextParameter(isParamInProperty = true) ReservationLines lines);

    /** Confirm: driven by the Redis fence records; false on a transient failure, so Seata retries. */
    boolean confirm(BusinessActionContext context);

    /** Cancel: driven by the Redis fence records; false on a transient failure, so Seata retries. */
    boolean cancel(BusinessActionContext context);
}
