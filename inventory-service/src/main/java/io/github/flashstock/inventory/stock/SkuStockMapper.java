package io.github.flashstock.inventory.stock;

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
 * {@code sku_stock} (and {@code restock_operation}). A row read whole by its key goes through {@link BaseMapper}
 * ({@link #find}); every write is a conditional statement of its own, kept as SQL (docs/design.md, "MySQL access").
 */
@Mapper
public interface SkuStockMapper extends BaseMapper<SkuStockRow> {

    /** @return 1 when created, 0 when the SKU already existed (nothing changed) */
    default int create(String skuId, long stocked, Integer limit) {
        return create(skuId, stocked, limit, 0);
    }

    /**
     * Creates the SKU with {@code allotment} of its units in the MySQL store's allotment (the rest are Redis's).
     * @return 1 when created, 0 when the SKU already existed (nothing changed)
     */
    @Insert("INSERT IGNORE INTO sku_stock (sku_id, stocked, sold, reserved, allotment_available, per_user_limit) "
            + "VALUES (#{skuId}, #{stocked}, 0, 0, #{allotment}, #{limit})")
    int create(@Param("skuId") String skuId, @Param("stocked") long stocked, @Param("limit") Integer limit,
               @Param("allotment") long allotment);

    /**
     * The rows a rebalance looks at: every SKU when {@code all}, else those whose allotment holds or expects units and
     * those named.
     */
    @Select({"<script>SELECT sku_id, stocked, sold, reserved, allotment_available, allotment_incoming, allotment_sold,"
            + " per_user_limit, version FROM sku_stock",
            "<if test='!all'> WHERE allotment_available + allotment_incoming &gt; 0",
            "<if test='!named.isEmpty()'> OR sku_id IN <foreach collection='named' item='s' open='(' separator=','"
                    + " close=')'>#{s}</foreach></if></if>",
            "</script>"})
    List<SkuStockRow> reserveRows(@Param("all") boolean all, @Param("named") java.util.Collection<String> named);

    /** The SKU's row; null for an unknown SKU. */
    default SkuStockRow find(String skuId) {
        return selectById(skuId);
    }

    /** The SKUs whose MySQL store holds open reservations or has sold: its counts to check against its ledger rows. */
    @Select("SELECT sku_id, stocked, sold, reserved, allotment_available, allotment_incoming, allotment_sold,"
            + " per_user_limit, version FROM sku_stock WHERE reserved > 0 OR allotment_sold > 0")
    List<SkuStockRow> withReserveSales();

    /**
     * One page of the SKUs whose id starts with {@code prefix} (null: all), by id ({@code page} from 1); {@code total}
     * counts them all. The prefix's {@code _} is matched as itself, not as LIKE's any-character.
     */
    default IPage<SkuStockRow> byId(String prefix, long page, long size) {
        return selectPage(new Page<>(page, size), Wrappers.<SkuStockRow>query()
                .likeRight(prefix != null, "sku_id", prefix == null ? null : prefix.replace("_", "\\_"))
                .orderByAsc("sku_id"));
    }

    /** Every SKU that Redis may hold: all but those whose sale is closed and swept from Redis ({@link #swept}). */
    @Select("SELECT sku_id FROM sku_stock WHERE swept_at IS NULL ORDER BY sku_id")
    List<String> skuIds();

    /**
     * Closes the SKU's sale in MySQL, for good: the MySQL store takes nothing of it from then on. Holds the row's
     * lock until the transaction ends, so a Try of the MySQL store either committed before or sees it closed.
     * @return 1 when the SKU exists (closed now or before), 0 for an unknown SKU
     */
    @Update("UPDATE sku_stock SET closed_at = COALESCE(closed_at, CURRENT_TIMESTAMP(3)) WHERE sku_id = #{skuId}")
    int close(@Param("skuId") String skuId);

    /** Where the SKU's sale stands, in one read: OPEN, CLOSED or SWEPT; null for an unknown SKU. */
    @Select("SELECT CASE WHEN swept_at IS NOT NULL THEN 'SWEPT' WHEN closed_at IS NOT NULL THEN 'CLOSED' ELSE 'OPEN'"
            + " END FROM sku_stock WHERE sku_id = #{skuId}")
    String saleState(@Param("skuId") String skuId);

    /** When the SKU's sale was closed; null while it is open (or for an unknown SKU). */
    @Select("SELECT closed_at FROM sku_stock WHERE sku_id = #{skuId}")
    java.time.Instant closedAt(@Param("skuId") String skuId);

    /** The SKUs whose sale is closed and whose keys Redis still holds (not swept yet), at most {@code limit}. */
    @Select("SELECT sku_id FROM sku_stock WHERE closed_at IS NOT NULL AND swept_at IS NULL ORDER BY closed_at"
            + " LIMIT #{limit}")
    List<String> closedUnswept(@Param("limit") int limit);

    /** Redis let go of the closed SKU's keys. @return 1 when recorded now */
    @Update("UPDATE sku_stock SET swept_at = CURRENT_TIMESTAMP(3) WHERE sku_id = #{skuId} AND closed_at IS NOT NULL"
            + " AND swept_at IS NULL")
    int swept(@Param("skuId") String skuId);

    /** When Redis let go of the closed SKU's keys; null before (or for an unknown SKU). */
    @Select("SELECT swept_at FROM sku_stock WHERE sku_id = #{skuId}")
    java.time.Instant sweptAt(@Param("skuId") String skuId);

    /**
     * Records a confirmed sale of units Redis held; 0 rows when the row would go below zero available in Redis's
     * share (drift: never silently).
     */
    /** The SKU's per-user limit ({@code null}: none). @return 1 when the SKU exists */
    @Update("UPDATE sku_stock SET per_user_limit = #{limit} WHERE sku_id = #{skuId}")
    int setLimit(@Param("skuId") String skuId, @Param("limit") Integer limit);

    @Update("UPDATE sku_stock SET sold = sold + #{units}, version = version + 1 "
            + "WHERE sku_id = #{skuId} AND stocked - sold - reserved - allotment_available - allotment_incoming >= #{units}")
    int sell(@Param("skuId") String skuId, @Param("units") long units);

    /**
     * The MySQL store takes units from the SKU's allotment for a Try on the MySQL store. @return 1 when the allotment had
     * them, 0 otherwise (or an unknown SKU)
     */
    @Update("UPDATE sku_stock SET reserved = reserved + #{units}, allotment_available = allotment_available - #{units},"
            + " version = version + 1 WHERE sku_id = #{skuId} AND allotment_available >= #{units}"
            + " AND closed_at IS NULL")
    int takeFromReserve(@Param("skuId") String skuId, @Param("units") long units);

    /**
     * As {@link #takeFromReserve}, for a SKU without a per-user limit only (nothing more to check): @return 1 when
     * taken, 0 when the SKU has a limit, the allotment lacks the units, or the SKU is unknown
     */
    @Update("UPDATE sku_stock SET reserved = reserved + #{units}, allotment_available = allotment_available - #{units},"
            + " version = version + 1 WHERE sku_id = #{skuId} AND allotment_available >= #{units}"
            + " AND per_user_limit IS NULL AND closed_at IS NULL")
    int takeFromReserveWithoutLimit(@Param("skuId") String skuId, @Param("units") long units);

    /**
     * Locks the SKU's row until the transaction ends: a Try of the MySQL store takes its SKUs' rows first (in SKU
     * order) and writes ledger rows after, the order every Try keeps. @return 1 when the SKU exists, 0 otherwise
     */
    @Select("SELECT COUNT(*) FROM sku_stock WHERE sku_id = #{skuId} FOR UPDATE")
    int lock(@Param("skuId") String skuId);

    /** A reservation the MySQL store held is confirmed: its units are sold (by the allotment). @return 1 when moved */
    @Update("UPDATE sku_stock SET reserved = reserved - #{units}, sold = sold + #{units},"
            + " allotment_sold = allotment_sold + #{units}, version = version + 1"
            + " WHERE sku_id = #{skuId} AND reserved >= #{units}")
    int sellReserved(@Param("skuId") String skuId, @Param("units") long units);

    /** A reservation the MySQL store held ends without a sale: its units go back to the allotment. @return 1 when moved */
    @Update("UPDATE sku_stock SET reserved = reserved - #{units}, allotment_available = allotment_available + #{units},"
            + " version = version + 1 WHERE sku_id = #{skuId} AND reserved >= #{units}")
    int releaseReserved(@Param("skuId") String skuId, @Param("units") long units);

    /** @return 1 when this operation is new for the SKU, 0 when it was recorded before (a replay) */
    @Insert("INSERT IGNORE INTO restock_operation (sku_id, operation_id, units) VALUES (#{skuId}, #{operationId}, #{units})")
    int recordRestock(@Param("skuId") String skuId, @Param("operationId") String operationId, @Param("units") long units);

    @Update("UPDATE sku_stock SET stocked = stocked + #{units}, version = version + 1 WHERE sku_id = #{skuId}")
    int restock(@Param("skuId") String skuId, @Param("units") long units);
}
