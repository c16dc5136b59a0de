package io.github.flashstock.orderdemo.order;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

@Mapper
interface OrderMapper {

    @Insert("INSERT INTO orders (order_id, user_id, status, xid) VALUES (#{orderId}, #{userId}, 'PENDING', #{xid})")
    int insertPending(@Param("orderId") String orderId, @Param("userId") String userId, @Param("xid") String xid);

    /** An order refused before any global transaction was opened for it: CANCELLED from the start, no xid. */
    @Insert("INSERT INTO orders (order_id, user_id, status, xid) VALUES (#{orderId}, #{userId}, 'CANCELLED', NULL)")
    int insertRefused(@Param("orderId") String orderId, @Param("userId") String userId);

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

    @Select("SELECT order_id, user_id, status, xid, created_at, updated_at FROM orders WHERE order_id = #{orderId}")
    OrderRow find(@Param("orderId") String orderId);

    @Select("SELECT status FROM orders WHERE order_id = #{orderId}")
    String status(@Param("orderId") String orderId);

    @Select("SELECT sku_id, quantity FROM order_line WHERE order_id = #{orderId} ORDER BY line_no")
    List<OrderItem> lines(@Param("orderId") String orderId);
}
