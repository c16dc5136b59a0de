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
 * statement, the phases' moves guarded by the state and XID they expect, the fence of an empty rollback) are SQL
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
     * The order's row as a Cancel reads it, locked until its transaction ends; null when there is none, and then the
     * gap where it would be is locked (repeatable read), so a Try cannot insert it until the Cancel has committed.
     */
    @Select("SELECT order_id, xid, status FROM orders WHERE order_id = #{orderId} FOR UPDATE")
    PhaseRow lockForCancel(@Param("orderId") String orderId);

    /** A Cancel: its own PENDING order to CANCELLED. @return 1 when moved */
    @Update("UPDATE orders SET status = 'CANCELLED' WHERE order_id = #{orderId} AND xid = #{xid} AND status = 'PENDING'")
    int cancelOwn(@Param("orderId") String orderId, @Param("xid") String xid);

    /** An empty rollback: the Cancel of {@code xid} found no order, so that transaction's Try is to be refused. */
    @Insert("INSERT IGNORE INTO order_fence (xid, order_id) VALUES (#{xid}, #{orderId})")
    int fence(@Param("xid") String xid, @Param("orderId") String orderId);

    /**
     * The XIDs among a group's Tries whose Cancel came first (an empty rollback recorded them), read as committed now
     * (a locking read), after the group's own inserts.
     */
    @Select({"<script>SELECT xid FROM order_fence WHERE <foreach collection='openings' item='o' separator=' OR '>"
            + "(xid = #{o.xid} AND order_id = #{o.orderId})</foreach> LOCK IN SHARE MODE</script>"})
    List<String> fenced(@Param("openings") List<OrderGroups.Opening> openings);

    /** The orders' rows as a phase reads them (those that exist). */
    @Select({"<script>SELECT order_id, xid, status FROM orders WHERE order_id IN <foreach collection='orderIds'"
            + " item='id' open='(' separator=',' close=')'>#{id}</foreach></script>"})
    List<PhaseRow> phaseRows(@Param("orderIds") List<String> orderIds);

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
