package io.github.flashstock.inventory.stock.jdbc;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

@Mapper
public interface SkuStockMapper {

    /** @return 1 when created, 0 when the SKU already existed (nothing changed) */
    @Insert("INSERT IGNORE INTO sku_stock (sku_id, stocked, sold, reserved, per_user_limit) "
            + "VALUES (#{skuId}, #{stocked}, 0, 0, #{limit})")
    int create(@Param("skuId") String skuId, @Param("stocked") long stocked, @Param("limit") Integer limit);

    @Select("SELECT sku_id, stocked, sold, reserved, reserve_available, reserve_incoming, reserve_sold,"
            + " per_user_limit, version"
            + " FROM sku_stock WHERE sku_id = #{skuId}")
    SkuStockRow find(@Param("skuId") String skuId);

    @Select("SELECT sku_id FROM sku_stock ORDER BY sku_id")
    List<String> skuIds();

    /**
     * Records a confirmed sale of units Redis held; 0 rows when the row would go below zero available in Redis's
     * share (drift: never silently).
     */
    @Update("UPDATE sku_stock SET sold = sold + #{units}, version = version + 1 "
            + "WHERE sku_id = #{skuId} AND stocked - sold - reserved - reserve_available - reserve_incoming >= #{units}")
    int sell(@Param("skuId") String skuId, @Param("units") long units);

    /** @return 1 when this operation is new for the SKU, 0 when it was recorded before (a replay) */
    @Insert("INSERT IGNORE INTO restock_operation (sku_id, operation_id, units) VALUES (#{skuId}, #{operationId}, #{units})")
    int recordRestock(@Param("skuId") String skuId, @Param("operationId") String operationId, @Param("units") long units);

    @Update("UPDATE sku_stock SET stocked = stocked + #{units}, version = version + 1 WHERE sku_id = #{skuId}")
    int restock(@Param("skuId") String skuId, @Param("units") long units);
}
