package io.github.flashstock.devstack.seata;

import java.util.function.Consumer;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.spring.annotation.GlobalTransactional;
import org.springframework.stereotype.Service;

/** Public, with a public method: Seata's scanner only enhances public {@code @GlobalTransactional} methods. */
@Service
public class ProbeService {

    private final ProbeAction action;

    ProbeService(ProbeAction action) {
        this.action = action;
    }

    /**
     * One global transaction with one TCC branch. {@code whileOpen} sees the XID after the branch's Try, before
     * the transaction ends; when {@code fail} is set the method throws afterwards, so Seata rolls back.
     */
    @GlobalTransactional(name = "devstack-probe-tx", timeoutMills = 60_000)
    public String run(String payload, Consumer<String> whileOpen, boolean fail) {
        action.prepare(null, payload);
        String xid = RootContext.getXID();
        whileOpen.accept(xid);
        if (fail) {
            throw new IllegalStateException("failing on purpose after the Try of " + xid);
        }
        return xid;
    }
}
