package io.github.flashstock.inventory.reconciliation;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

@Mapper
interface RepairAuditMapper {

    @Insert("INSERT INTO repair_audit (action, sku_id, xid, reservation_key, detail, actor) "
            + "VALUES (#{action}, #{skuId}, #{xid}, #{reservationId}, #{detail}, #{actor})")
    int record(@Param("action") String action, @Param("skuId") String skuId, @Param("xid") String xid,
               @Param("reservationId") String reservationId, @Param("detail") String detail,
               @Param("actor") String actor);

    @Select("SELECT action, sku_id, xid, reservation_key, detail, actor, created_at FROM repair_audit "
            + "WHERE sku_id = #{skuId} ORDER BY id")
    List<Map<String, Object>> of(@Param("skuId") String skuId);
}
