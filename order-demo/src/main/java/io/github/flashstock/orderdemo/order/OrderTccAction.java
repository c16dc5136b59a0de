package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.springframework.stereotype.Component;

@Component
class OrderTccAction implements OrderAction {

    private final OrderGroups groups;

    OrderTccAction(OrderGroups groups) {
        this.groups = groups;
    }

    @Override
    public boolean open(BusinessActionContext context,
                        // Seata reads the parameter annotations from the implementing method
                        @BusinessActionContextParameter(paramName = "orderId") String orderId,
                        String userId, List<OrderItem> items) {
        groups.open(new OrderGroups.Opening(orderId, userId, RootContext.getXID(), items));
        return true;
    }

    @Override
    public boolean confirm(BusinessActionContext context) {
        return groups.confirm(new OrderGroups.Confirming(context.getActionContext("orderId", String.class),
                context.getXid()));
    }

    @Override
    public boolean cancel(BusinessActionContext context) {
        return groups.cancel(context.getActionContext("orderId", String.class), context.getXid());
    }
}
