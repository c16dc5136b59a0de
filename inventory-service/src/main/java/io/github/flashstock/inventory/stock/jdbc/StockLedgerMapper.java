package io.github.flashstock.inventory.stock.jdbc;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

@Mapper
public interface StockLedgerMapper {

    /** @return 1 when written, 0 when a row for (xid, reservation, SKU) exists already (nothing changed) */
    @Insert("INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, backend) "
            + "VALUES (#{xid}, #{reservationId}, #{branchId}, #{skuId}, #{quantity}, #{state}, #{backend})")
    int insert(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("branchId") long branchId,
               @Param("skuId") String skuId, @Param("quantity") long quantity, @Param("state") String state,
               @Param("backend") String backend);

    /** Moves a TRIED row forward; states never move back. @return 1 when moved */
    @Update("UPDATE stock_ledger SET state = #{to} "
            + "WHERE xid = #{xid} AND reservation_key = #{reservationId} AND sku_id = #{skuId} AND state = 'TRIED'")
    int advance(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("skuId") String skuId,
                @Param("to") String to);

    @Select("SELECT state FROM stock_ledger WHERE xid = #{xid} AND reservation_key = #{reservationId} "
            + "AND sku_id = #{skuId}")
    String state(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("skuId") String skuId);

    /** Every ledger row of one global transaction, as {@code sku_id}, {@code state}, {@code quantity}. */
    @Select("SELECT sku_id, state, quantity FROM stock_ledger WHERE xid = #{xid} ORDER BY sku_id")
    java.util.List<java.util.Map<String, Object>> rowsOf(@Param("xid") String xid);

    /** Units the ledger holds as CONFIRMED for this SKU: what MySQL's sold count must equal. */
    @Select("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = #{skuId} AND state = 'CONFIRMED'")
    long confirmedUnits(@Param("skuId") String skuId);
}
