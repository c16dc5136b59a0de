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
 * {@code orders} and {@code order_line}. An order's row is read whole through {@link BaseMapper}, and written so when it
 * is refused before any transaction; the order branch's statements ({@link OrderGroups}: a group's rows in one
 * statement, the phases' moves guarded by the state and XID they expect, the Cancel's insert-or-move) are SQL
 * (docs/design.md, "MySQL access").
 */
@Mapper
interface OrderMapper extends BaseMapper<OrderRow> {

    /** An order refused before any global transaction was opened for it: CANCELLED from the start, no xid. */
    default int insertRefused(String orderId, String userId) {
        return insert(new OrderRow(orderId, userId, OrderStatus.CANCELLED.name(), null, null, null));
    }

    @Insert("INSERT INTO order_line (order_id, line_no, sku_id, quantity) "
            + "VALUES (#{orderId}, #{lineNo}, #{skuId}, #{quantity})")
    int insertLine(@Param("orderId") String orderId, @Param("lineNo") int lineNo, @Param("skuId") String skuId,
                   @Param("quantity") int quantity);

    /**
     * The Tries of a group: their orders PENDING under their XIDs, one statement. Fails whole on a taken key.
     *
     * @return rows written
     */
    @Insert({"<script>INSERT INTO orders (order_id, user_id, status, xid) VALUES <foreach collection='openings'"
            + " item='o' separator=','>(#{o.orderId}, #{o.userId}, 'PENDING', #{o.xid})</foreach></script>"})
    int insertPendingAll(@Param("openings") List<OrderGroups.Opening> openings);

    /** The lines of a group's orders, one statement. @return rows written */
    @Insert({"<script>INSERT INTO order_line (order_id, line_no, sku_id, quantity) VALUES <foreach"
            + " collection='lines' item='l' separator=','>(#{l.orderId}, #{l.lineNo}, #{l.skuId}, #{l.quantity})"
            + "</foreach></script>"})
    int insertLines(@Param("lines") List<OrderGroups.Line> lines);

    /**
     * The Confirms of a group: each PENDING order of its own XID to CONFIRMED, one statement. An order no longer
     * PENDING (a replayed phase) or of another transaction (a second placement under the same Idempotency-Key, whose
     * Try found the key taken) is left as it is.
     *
     * @return orders moved
     */
    @Update({"<script>UPDATE orders SET status = 'CONFIRMED' WHERE status = 'PENDING' AND (<foreach"
            + " collection='confirms' item='c' separator=' OR '>(order_id = #{c.orderId} AND xid = #{c.xid})"
            + "</foreach>)</script>"})
    int confirmAll(@Param("confirms") List<OrderGroups.Confirming> confirms);

    /**
     * A Cancel: its own PENDING order to CANCELLED; an order that is not PENDING or of another transaction is left as
     * it is; and where there is no order of that id, the order written CANCELLED under this XID with no lines (the
     * Cancel overtook its Try, whose insert then finds the key taken). One statement, atomic on the order's key.
     */
    @Insert("INSERT INTO orders (order_id, user_id, status, xid) VALUES (#{orderId}, #{userId}, 'CANCELLED', #{xid}) "
            + "ON DUPLICATE KEY UPDATE status = IF(xid = #{xid} AND status = 'PENDING', 'CANCELLED', status)")
    int cancelOrFence(@Param("orderId") String orderId, @Param("userId") String userId, @Param("xid") String xid);

    /** The orders' rows as a phase reads them (those that exist). */
    @Select({"<script>SELECT order_id, xid, status FROM orders WHERE order_id IN <foreach collection='orderIds'"
            + " item='id' open='(' separator=',' close=')'>#{id}</foreach></script>"})
    List<PhaseRow> phaseRows(@Param("orderIds") List<String> orderIds);

    /** The order's row as a Try about to take it over reads it, locked until the transaction ends; null if none. */
    @Select("SELECT order_id, xid, status FROM orders WHERE order_id = #{orderId} FOR UPDATE")
    PhaseRow lockForTakeOver(@Param("orderId") String orderId);

    @Select("SELECT COUNT(*) FROM order_line WHERE order_id = #{orderId}")
    int lineCount(@Param("orderId") String orderId);

    /**
     * A Cancel's row of an abandoned transaction (CANCELLED under {@code abandonedXid}, no lines, of this buyer)
     * becomes the PENDING order of transaction {@code xid}. @return 1 when taken over
     */
    @Update("UPDATE orders SET status = 'PENDING', xid = #{xid} WHERE order_id = #{orderId} AND user_id = #{userId}"
            + " AND status = 'CANCELLED' AND xid = #{abandonedXid}")
    int takeOver(@Param("orderId") String orderId, @Param("userId") String userId,
                 @Param("abandonedXid") String abandonedXid, @Param("xid") String xid);

    /** What a phase reads of an order's row. */
    record PhaseRow(String orderId, String xid, String status) {
    }

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
