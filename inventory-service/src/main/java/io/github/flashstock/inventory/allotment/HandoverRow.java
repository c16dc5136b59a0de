package io.github.flashstock.inventory.allotment;

import java.time.Instant;

/**
 * One {@code stock_handover} row: {@code direction} TO_MYSQL or TO_REDIS, {@code units} asked, {@code moved} null
 * while PENDING.
 */
public record HandoverRow(String operationId, String skuId, String direction, long units, Long moved, String state,
                          String reason, Instant createdAt, Instant updatedAt) {

    public boolean toMysql() {
        return "TO_MYSQL".equals(direction);
    }

    public boolean pending() {
        return "PENDING".equals(state);
    }
}
