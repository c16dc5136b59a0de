package io.github.flashstock.devstack.seata;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.springframework.stereotype.Component;

@Component
public class ProbeActionImpl implements ProbeAction {

    private final Journal journal;

    ProbeActionImpl(Journal journal) {
        this.journal = journal;
    }

    @Override
    public boolean prepare(BusinessActionContext context,
                           @BusinessActionContextParameter(paramName = "payload") String payload) {
        journal.add("prepare " + context.getXid() + " " + payload);
        return true;
    }

    @Override
    public boolean commit(BusinessActionContext context) {
        journal.add("commit " + context.getXid() + " " + context.getActionContext("payload"));
        return true;
    }

    @Override
    public boolean rollback(BusinessActionContext context) {
        journal.add("rollback " + context.getXid() + " " + context.getActionContext("payload"));
        return true;
    }
}
