package io.github.flashstock.floor;

import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.springframework.stereotype.Component;

/** Both branches' phases: each succeeds at once. */
final class Branches {

    private Branches() {
    }

    @Component
    static class Local implements LocalBranch {
        @Override
        public boolean prepare(BusinessActionContext context) {
            return true;
        }

        @Override
        public boolean confirm(BusinessActionContext context) {
            return true;
        }

        @Override
        public boolean cancel(BusinessActionContext context) {
            return true;
        }
    }

    @Component
    static class Remote implements RemoteBranch {
        @Override
        public boolean prepare(BusinessActionContext context) {
            return true;
        }

        @Override
        public boolean confirm(BusinessActionContext context) {
            return true;
        }

        @Override
        public boolean cancel(BusinessActionContext context) {
            return true;
        }
    }
}
