package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

@Component
class OrderTccAction implements OrderAction {

    private static final Logger log = LoggerFactory.getLogger(OrderTccAction.class);

    private final OrderMapper orders;

    OrderTccAction(OrderMapper orders) {
        this.orders = orders;
    }

    @Override
    public boolean open(BusinessActionContext context,
                        // Seata reads the parameter annotations from the implementing method
                        @BusinessActionContextParameter(paramName = "orderId") String orderId,
                        String userId, List<OrderItem> items) {
        orders.insertPending(orderId, userId, RootContext.getXID());
        for (int i = 0; i < items.size(); i++) {
            orders.insertLine(orderId, i + 1, items.get(i).skuId(), items.get(i).quantity());
        }
        return true;
    }

    @Override
    public boolean confirm(BusinessActionContext context) {
        return finish(context, OrderStatus.CONFIRMED);
    }

    @Override
    public boolean cancel(BusinessActionContext context) {
        return finish(context, OrderStatus.CANCELLED);
    }

    private boolean finish(BusinessActionContext context, OrderStatus to) {
        String orderId = context.getActionContext("orderId", String.class);
        if (orders.finish(orderId, context.getXid(), to.name()) == 0) {
            log.info("order {} was not PENDING when its {} arrived; nothing changed", orderId, to);
        }
        return true;
    }
}
