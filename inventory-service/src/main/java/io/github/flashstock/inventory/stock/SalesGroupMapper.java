package io.github.flashstock.inventory.stock;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * The statements of a group commit ({@link SalesGroups}): the second phases of many reservations Redis held, in one
 * transaction, each statement covering the whole group. Written by hand because the SQL is the point: a row lock
 * on exactly the group's ledger rows, one multi-row insert, one update by ids guarded by the state it expects.
 */
@Mapper
interface SalesGroupMapper {

    /** The ledger rows the group's reservations have, locked until the transaction ends. */
    @Select({"<script>SELECT id, xid, reservation_key, sku_id, quantity, state, store FROM stock_ledger WHERE",
            "<foreach collection='sales' item='s' separator=' OR '>(xid = #{s.xid} AND reservation_key ="
                    + " #{s.reservationId} AND sku_id = #{s.skuId})</foreach> FOR UPDATE</script>"})
    List<GroupRow> lock(@Param("sales") List<Sale> sales);

    /**
     * Ledger rows for reservations that had none, in the phase's end state, store REDIS.
     *
     * @return rows written: fewer than the sales when a row appeared meanwhile (the ledger consumer's TRIED row)
     */
    @Insert({"<script>INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store,"
            + " user_id) VALUES <foreach collection='sales' item='s' separator=','>(#{s.xid}, #{s.reservationId},"
            + " #{s.branchId}, #{s.skuId}, #{s.units}, #{state}, 'REDIS', #{s.userId})</foreach></script>"})
    int insertEnded(@Param("sales") List<Sale> sales, @Param("state") String state);

    /** Moves TRIED rows of the Redis store to the phase's end state. @return rows moved */
    @Update({"<script>UPDATE stock_ledger SET state = #{state} WHERE state = 'TRIED' AND store = 'REDIS' AND id IN",
            "<foreach collection='ids' item='id' open='(' separator=',' close=')'>#{id}</foreach></script>"})
    int advance(@Param("ids") List<Long> ids, @Param("state") String state);

    /** A ledger row as the group reads it. */
    record GroupRow(long id, String xid, String reservationKey, String skuId, long quantity, String state,
                    String store) {

        Sale.Key key() {
            return new Sale.Key(xid, reservationKey, skuId);
        }
    }
}
