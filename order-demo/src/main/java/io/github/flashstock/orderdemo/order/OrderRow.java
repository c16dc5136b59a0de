package io.github.flashstock.orderdemo.order;

import java.time.Instant;

/** A row of {@code orders}. */
record OrderRow(String orderId, String userId, String status, String xid, Instant createdAt, Instant updatedAt) {
}
