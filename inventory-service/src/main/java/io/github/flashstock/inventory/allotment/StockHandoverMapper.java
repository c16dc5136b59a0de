package io.github.flashstock.inventory.allotment;

import com.baomidou.mybatisplus.core.conditions.query.QueryWrapper;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.metadata.IPage;
import com.baomidou.mybatisplus.core.toolkit.Wrappers;
import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * {@code stock_handover} and the {@code sku_stock} columns a handover moves (see {@code sql/inventory.sql}). Rows read
 * whole by key or page by page go through {@link BaseMapper}; the fence ({@link #begin}) and the conditional moves
 * stay SQL (docs/design.md, "MySQL access").
 */
@Mapper
public interface StockHandoverMapper extends BaseMapper<HandoverRow> {

    /** @return 1 when the operation is new, 0 when its id is taken (a replay, or another operation's id) */
    @Insert("INSERT IGNORE INTO stock_handover (operation_id, sku_id, direction, units, state, reason) "
            + "VALUES (#{operationId}, #{skuId}, #{direction}, #{units}, 'PENDING', #{reason})")
    int begin(@Param("operationId") String operationId, @Param("skuId") String skuId,
              @Param("direction") String direction, @Param("units") long units, @Param("reason") String reason);

    /** The operation's row; null when there is none. */
    default HandoverRow find(String operationId) {
        return selectById(operationId);
    }

    /** The SKU's handovers still under way (or cut short), oldest first. */
    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE sku_id = #{skuId} AND state = 'PENDING' ORDER BY created_at, operation_id")
    List<HandoverRow> pendingOf(@Param("skuId") String skuId);

    /** Handovers of any SKU still PENDING since before {@code seconds} ago: cut short, to complete. */
    @Select("SELECT operation_id, sku_id, direction, units, moved, state, reason, created_at, updated_at"
            + " FROM stock_handover WHERE state = 'PENDING'"
            + " AND created_at < CURRENT_TIMESTAMP(3) - INTERVAL #{seconds} SECOND ORDER BY created_at LIMIT 100")
    List<HandoverRow> pendingSince(@Param("seconds") long seconds);

    /**
     * One page of the SKU's handovers, newest first ({@code page} from 1); {@code total} counts them all. Columns by
     * name: MyBatis-Plus's lambda conditions read JavaBean getters, which a record does not have.
     */
    default IPage<HandoverRow> newestOf(String skuId, long page, long size) {
        return selectPage(new Page<>(page, size), newestFirst(skuId));
    }

    /** One page of the handovers still PENDING, every SKU's, oldest first ({@code page} from 1). */
    default IPage<HandoverRow> pending(long page, long size) {
        return selectPage(new Page<>(page, size), Wrappers.<HandoverRow>query().eq("state", "PENDING")
                .orderByAsc("created_at").orderByAsc("operation_id"));
    }

    /** The SKU's last {@code limit} handovers, newest first. */
    default List<HandoverRow> lastOf(String skuId, int limit) {
        return selectPage(new Page<>(1, limit, false), newestFirst(skuId)).getRecords();
    }

    private static QueryWrapper<HandoverRow> newestFirst(String skuId) {
        return Wrappers.<HandoverRow>query().eq("sku_id", skuId).orderByDesc("created_at").orderByAsc("operation_id");
    }

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
