package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlacingOrdersTest {

    @Test
    void mergesLinesOfTheSameSkuInFirstSeenOrder() {
        assertThat(PlacingOrders.merge(List.of(new OrderItem("b", 1), new OrderItem("a", 2), new OrderItem("b", 3))))
                .containsExactly(new OrderItem("b", 4), new OrderItem("a", 2));
    }

    @Test
    void checksTheLimitsInForceAtTheTimeOfTheOrder() {
        OrderLimits limits = new OrderLimits();
        PlacingOrders placing = new PlacingOrders(null, null, limits, null, null, new org.springframework.jdbc.datasource.DataSourceTransactionManager());
        List<OrderItem> fourUnits = List.of(new OrderItem("a", 3), new OrderItem("b", 1));
        placing.check(fourUnits);

        limits.setMaxUnitsPerOrder(3);

        assertThatThrownBy(() -> placing.check(fourUnits)).isInstanceOfSatisfying(OrderLimitExceeded.class,
                e -> assertThat(e.limit()).isEqualTo(3));
    }
}
