package io.github.flashstock.orderdemo.order;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import java.time.Instant;

/**
 * A row of {@code orders}: the entity of {@link OrderMapper}'s {@code BaseMapper}, built through its constructor (the
 * columns in the order of its components, the key first). {@code status} PENDING, CONFIRMED or CANCELLED; the times
 * are the database's (null in a row about to be written, which leaves them to the column defaults).
 */
@TableName("orders")
public record OrderRow(@TableId(value = "order_id", type = IdType.INPUT) String orderId, String userId, String status,
                       String xid, Instant createdAt, Instant updatedAt) {
}
