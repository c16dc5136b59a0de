package io.github.flashstock.floor;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/** The back's branch: registered with the TC and driven through both phases, no fence, no work. */
@LocalTCC
public interface RemoteBranch {

    @TwoPhaseBusinessAction(name = "floor-remote", commitMethod = "confirm", rollbackMethod = "cancel",
            useTCCFence = false)
    boolean prepare(BusinessActionContext context);

    boolean confirm(BusinessActionContext context);

    boolean cancel(BusinessActionContext context);
}
