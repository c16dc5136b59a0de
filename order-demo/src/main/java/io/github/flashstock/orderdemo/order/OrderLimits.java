package io.github.flashstock.orderdemo.order;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Limits on one order. A JavaBean on purpose: Spring Cloud rebinds it in place when the configuration changes
 * (a Nacos push or {@code POST /actuator/refresh}), so the next order sees the new values without a restart.
 */
@Component
@ConfigurationProperties("orders.limits")
public class OrderLimits {

    private volatile int maxUnitsPerOrder = 10;
    private volatile int maxLines = 20;

    public int getMaxUnitsPerOrder() {
        return maxUnitsPerOrder;
    }

    public void setMaxUnitsPerOrder(int maxUnitsPerOrder) {
        this.maxUnitsPerOrder = maxUnitsPerOrder;
    }

    public int getMaxLines() {
        return maxLines;
    }

    public void setMaxLines(int maxLines) {
        this.maxLines = maxLines;
    }
}
