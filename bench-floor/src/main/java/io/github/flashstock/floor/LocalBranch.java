package io.github.flashstock.floor;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/** The front's branch: no work of its own, but Seata's fence writes its log row in each phase, as order-demo's does. */
@LocalTCC
public interface LocalBranch {

    @TwoPhaseBusinessAction(name = "floor-local", commitMethod = "confirm", rollbackMethod = "cancel",
            useTCCFence = true)
    boolean prepare(BusinessActionContext context);

    boolean confirm(BusinessActionContext context);

    boolean cancel(BusinessActionContext context);
}
