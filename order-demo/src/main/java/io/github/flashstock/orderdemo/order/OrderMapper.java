package io.github.flashstock.orderdemo.order;

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
 * {@code orders} and {@code order_line}. An order's row is written and read whole through {@link BaseMapper}; the
 * phase's conditional move ({@link #finish}) and the lines stay SQL (docs/design.md, "MySQL access").
 */
@Mapper
interface OrderMapper extends BaseMapper<OrderRow> {

    default int insertPending(String orderId, String userId, String xid) {
        return insert(new OrderRow(orderId, userId, OrderStatus.PENDING.name(), xid, null, null));
    }

    /** An order refused before any global transaction was opened for it: CANCELLED from the start, no xid. */
    default int insertRefused(String orderId, String userId) {
        return insert(new OrderRow(orderId, userId, OrderStatus.CANCELLED.name(), null, null, null));
    }

    @Insert("INSERT INTO order_line (order_id, line_no, sku_id, quantity) "
            + "VALUES (#{orderId}, #{lineNo}, #{skuId}, #{quantity})")
    int insertLine(@Param("orderId") String orderId, @Param("lineNo") int lineNo, @Param("skuId") String skuId,
                   @Param("quantity") int quantity);

    /**
     * Moves a PENDING order of this global transaction on; 0 rows when it is no longer PENDING (a replayed phase) or
     * belongs to another transaction (a second placement under the same Idempotency-Key, whose Try found the row taken).
     */
    @Update("UPDATE orders SET status = #{to} WHERE order_id = #{orderId} AND xid = #{xid} AND status = 'PENDING'")
    int finish(@Param("orderId") String orderId, @Param("xid") String xid, @Param("to") String to);

    /** The order's row; null when there is none. */
    default OrderRow find(String orderId) {
        return selectById(orderId);
    }

    /**
     * One page ({@code page} from 1) of the orders, of one status or (null) every status, newest first. Columns by
     * name: MyBatis-Plus's lambda conditions read JavaBean getters, which a record does not have.
     */
    default IPage<OrderRow> newest(String status, long page, long size) {
        return selectPage(new Page<>(page, size), Wrappers.<OrderRow>query().eq(status != null, "status", status)
                .orderByDesc("created_at").orderByAsc("order_id"));
    }

    @Select("SELECT status FROM orders WHERE order_id = #{orderId}")
    String status(@Param("orderId") String orderId);

    @Select("SELECT sku_id, quantity FROM order_line WHERE order_id = #{orderId} ORDER BY line_no")
    List<OrderItem> lines(@Param("orderId") String orderId);
}
