package io.github.flashstock.orderdemo.order;

import com.baomidou.mybatisplus.core.metadata.IPage;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Reads orders as stored. */
@Service
public class ReadingOrders {

    private final OrderMapper orders;

    ReadingOrders(OrderMapper orders) {
        this.orders = orders;
    }

    /** The order's status alone (one indexed read, no lines). @throws UnknownOrder when there is none */
    public OrderStatus status(String orderId) {
        String status = orders.status(orderId);
        if (status == null) {
            throw new UnknownOrder(orderId);
        }
        return OrderStatus.valueOf(status);
    }

    /** The order if it exists; empty when it was never written (or its writing was rolled back with it). */
    public Optional<Order> findIfAny(String orderId) {
        return Optional.ofNullable(orders.find(orderId)).map(this::withLines);
    }

    /**
     * One page ({@code page} from 1) of the orders, newest first, of one status or (null) all; the rows alone,
     * without their lines.
     */
    public IPage<OrderRow> page(OrderStatus status, long page, long size) {
        return orders.newest(status == null ? null : status.name(), page, size);
    }

    /** @throws UnknownOrder when there is none */
    public Order find(String orderId) {
        return findIfAny(orderId).orElseThrow(() -> new UnknownOrder(orderId));
    }

    private Order withLines(OrderRow row) {
        return new Order(row.orderId(), row.userId(), OrderStatus.valueOf(row.status()), row.xid(),
                orders.lines(row.orderId()), row.createdAt(), row.updatedAt());
    }
}
