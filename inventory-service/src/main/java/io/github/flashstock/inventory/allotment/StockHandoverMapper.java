package io.github.flashstock.inventory.allotment;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** {@code stock_handover} and the {@code sku_stock} columns a handover moves (see {@code sql/inventory.sql}). */
@Mapper
public interface StockHandoverMapper {

    /** @return 1 when the operation is new, 0 when its id is taken (a replay, or another operation's id) */
    @Insert("INSERT IGNORE INTO stock_handover (operation_id, sku_id, direction, units, state, reason) "
            + "VALUES (#{operationId}, #{skuId}, #{direction}, #{units}, 'PENDING', #{reason})")
    int begin(@Param("operationId") String operationId, @Param("skuId") String skuId,
              @Param("direction") String direction, @Param("units") long units, @Param("reason") String reason);

    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE operation_id = #{operationId}")
    HandoverRow find(@Param("operationId") String operationId);

    /** The SKU's handovers still under way (or cut short), oldest first. */
    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE sku_id = #{skuId} AND state = 'PENDING' ORDER BY created_at, operation_id")
    List<HandoverRow> pendingOf(@Param("skuId") String skuId);

    /** Handovers of any SKU still PENDING since before {@code seconds} ago: cut short, to complete. */
    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE state = 'PENDING'"
            + " AND created_at < CURRENT_TIMESTAMP(3) - INTERVAL #{seconds} SECOND ORDER BY created_at LIMIT 100")
    List<HandoverRow> pendingSince(@Param("seconds") long seconds);

    /** The SKU's last handovers, newest first. */
    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE sku_id = #{skuId} ORDER BY created_at DESC, operation_id LIMIT #{limit}")
    List<HandoverRow> lastOf(@Param("skuId") String skuId, @Param("limit") int limit);

    /** @return 1 when the operation was PENDING and is DONE now, 0 when it was DONE already */
    @Update("UPDATE stock_handover SET state = 'DONE', moved = #{moved}"
            + " WHERE operation_id = #{operationId} AND state = 'PENDING'")
    int finish(@Param("operationId") String operationId, @Param("moved") long moved);

    /** TO_MYSQL, first step: the units are on their way, sellable by neither store. @return 1 when possible */
    @Update("UPDATE sku_stock SET allotment_incoming = allotment_incoming + #{units}, version = version + 1"
            + " WHERE sku_id = #{skuId}"
            + " AND stocked - sold - reserved - allotment_available - allotment_incoming >= #{units}")
    int expect(@Param("skuId") String skuId, @Param("units") long units);

    /** TO_MYSQL, last step: of the units expected, those Redis gave up join the allotment; the rest stay Redis's. */
    @Update("UPDATE sku_stock SET allotment_incoming = allotment_incoming - #{units},"
            + " allotment_available = allotment_available + #{moved}, version = version + 1 WHERE sku_id = #{skuId}")
    int receive(@Param("skuId") String skuId, @Param("units") long units, @Param("moved") long moved);

    /** TO_REDIS, first step: the units leave the allotment. @return 1 when the allotment had them */
    @Update("UPDATE sku_stock SET allotment_available = allotment_available - #{units}, version = version + 1"
            + " WHERE sku_id = #{skuId} AND allotment_available >= #{units}")
    int release(@Param("skuId") String skuId, @Param("units") long units);
}
