package io.github.flashstock.devstack.seata;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.apache.seata.rm.tcc.api.LocalTCC;
import org.apache.seata.rm.tcc.api.TwoPhaseBusinessAction;

/** A TCC branch that only records which phase ran for which transaction. */
@LocalTCC
public interface ProbeAction {

    @TwoPhaseBusinessAction(name = "devstackProbe", commitMethod = "commit", rollbackMethod = "rollback")
    boolean prepare(BusinessActionContext context, @BusinessActionContextParameter(paramName = "payload") String payload);

    boolean commit(BusinessActionContext context);

    boolean rollback(BusinessActionContext context);
}
