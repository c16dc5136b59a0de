package io.github.flashstock.orderdemo.order;

import java.time.Instant;
import java.util.List;

/** An order as stored. */
public record Order(String orderId, String userId, OrderStatus status, String xid, List<OrderItem> items,
                    Instant createdAt, Instant updatedAt) {
}
