package io.github.flashstock.inventory.allotment;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import java.time.Instant;

/**
 * One {@code stock_handover} row: {@code direction} TO_MYSQL or TO_REDIS, {@code units} asked, {@code moved} null
 * while PENDING. The entity of {@link StockHandoverMapper}'s {@code BaseMapper}, built through its constructor (the
 * columns in the order of its components, the key first).
 */
@TableName("stock_handover")
public record HandoverRow(@TableId(value = "operation_id", type = IdType.INPUT) String operationId, String skuId, String direction, long units, Long moved, String state,
                          String reason, Instant createdAt, Instant updatedAt) {

    public boolean toMysql() {
        return "TO_MYSQL".equals(direction);
    }

    public boolean pending() {
        return "PENDING".equals(state);
    }
}
