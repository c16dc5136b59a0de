package io.github.flashstock.inventory.stock;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

@Mapper
public interface StockLedgerMapper {

    /** @return 1 when written, 0 when a row for (xid, reservation, SKU) exists already (nothing changed) */
    @Insert("INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id)"
            + " VALUES (#{xid}, #{reservationId}, #{branchId}, #{skuId}, #{quantity}, #{state}, #{store}, #{userId})")
    int insert(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("branchId") long branchId,
               @Param("skuId") String skuId, @Param("quantity") long quantity, @Param("state") String state,
               @Param("store") String store, @Param("userId") String userId);

    /**
     * The record of a refused Try on one SKU (state REFUSED, with the refusal): a Confirm that meets it takes
     * nothing. The MySQL store's record of a refusal the buyer is told is final (insufficient stock, the buyer's limit)
     * waits to be mirrored to Redis ({@code lua/mirror.lua} writes Redis's REFUSED record, which releases a Redis
     * reservation of the same Try that landed late, and refuses one landing later); a stale SKU's refusal (a 503 the
     * caller retries, which Redis may take once the SKU is rebuilt) is not mirrored.
     * @return 1 when written, 0 when the reservation has a row of this SKU already (nothing changed)
     */
    @Insert("INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id,"
            + " redis_mirrored, refusal) VALUES (#{xid}, #{reservationId}, #{branchId}, #{skuId}, #{quantity},"
            + " 'REFUSED', #{store}, #{userId}, IF(#{store} = 'MYSQL' AND #{refusal} <> 'stale-sku' AND NOT"
            + " (#{refusal} = 'sale-closed' AND EXISTS (SELECT 1 FROM sku_stock WHERE sku_id = #{skuId}"
            + " AND swept_at IS NOT NULL)), 0, 1),"
            + " #{refusal})")
    int insertRefused(@Param("xid") String xid, @Param("reservationId") String reservationId,
                      @Param("branchId") long branchId, @Param("skuId") String skuId, @Param("quantity") long quantity,
                      @Param("store") String store, @Param("userId") String userId,
                      @Param("refusal") String refusal);

    /**
     * A Confirm met the refusal of this reservation's Try on this SKU: the REFUSED row (written now if the refusal
     * was recorded in Redis only) keeps when, for the reconciler to report. A row in another state is left as it is.
     */
    @Insert("INSERT INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store, user_id,"
            + " redis_mirrored, refusal, refused_confirm_at) VALUES (#{xid}, #{reservationId}, #{branchId}, #{skuId},"
            + " #{quantity}, 'REFUSED', #{store}, #{userId}, 1, 'recorded-in-redis', CURRENT_TIMESTAMP(3))"
            + " ON DUPLICATE KEY UPDATE refused_confirm_at = IF(state = 'REFUSED',"
            + " COALESCE(refused_confirm_at, CURRENT_TIMESTAMP(3)), refused_confirm_at)")
    int confirmOfRefused(@Param("xid") String xid, @Param("reservationId") String reservationId,
                         @Param("branchId") long branchId, @Param("skuId") String skuId,
                         @Param("quantity") long quantity, @Param("store") String store,
                         @Param("userId") String userId);

    /** The SKU's refused Tries whose transaction was committed all the same, oldest first. */
    @Select("SELECT xid, reservation_key AS reservationId, quantity, refusal, refused_confirm_at AS confirmedAt"
            + " FROM stock_ledger WHERE sku_id = #{skuId} AND state = 'REFUSED' AND refused_confirm_at IS NOT NULL"
            + " ORDER BY refused_confirm_at")
    java.util.List<java.util.Map<String, Object>> refusedConfirms(@Param("skuId") String skuId);

    /** Moves a TRIED row of a reservation Redis held forward; states never move back. @return 1 when moved */
    @Update("UPDATE stock_ledger SET state = #{to} WHERE xid = #{xid} AND reservation_key = #{reservationId}"
            + " AND sku_id = #{skuId} AND state = 'TRIED' AND store = 'REDIS'")
    int advance(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("skuId") String skuId,
                @Param("to") String to);

    @Select("SELECT state FROM stock_ledger WHERE xid = #{xid} AND reservation_key = #{reservationId} "
            + "AND sku_id = #{skuId}")
    String state(@Param("xid") String xid, @Param("reservationId") String reservationId, @Param("skuId") String skuId);

    /** The row of one reservation on one SKU, locked until the transaction ends; null when there is none. */
    @Select("SELECT id, sku_id, quantity, state, store, user_id, refusal, branch_id FROM stock_ledger WHERE xid = #{xid}"
            + " AND reservation_key = #{reservationId} AND sku_id = #{skuId} FOR UPDATE")
    LedgerRow lock(@Param("xid") String xid, @Param("reservationId") String reservationId,
                   @Param("skuId") String skuId);

    /**
     * A reservation held by the MySQL store on one SKU that Redis (its own Try, retried) held as well and whose
     * phase reached Redis first: the row becomes the Redis store's, in the state that phase gave it, and Redis has
     * nothing more to mirror.
     */
    @Update("UPDATE stock_ledger SET store = 'REDIS', state = #{state}, quantity = #{quantity}, redis_mirrored = 1"
            + " WHERE id = #{id}")
    int takeOverForRedis(@Param("id") long id, @Param("state") String state, @Param("quantity") long quantity);

    /**
     * The MySQL store's fence and record of a Try on the MySQL store: one TRIED row per line, store MYSQL, not yet
     * mirrored to Redis. @return rows written; fewer than the lines when some existed (those are left as they were)
     */
    @Insert({"<script>INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store,"
            + " user_id, redis_mirrored) VALUES <foreach collection='lines' item='l' separator=','>(#{xid},"
            + " #{reservationId}, #{branchId}, #{l.skuId}, #{l.quantity}, 'TRIED', 'MYSQL', #{userId}, 0)</foreach>",
            "</script>"})
    int insertTried(@Param("xid") String xid, @Param("reservationId") String reservationId,
                    @Param("branchId") long branchId, @Param("userId") String userId,
                    @Param("lines") java.util.List<TriedLine> lines);

    /** The Redis store's row of one reservation on one SKU once a second phase ended it; null while it has none. */
    @Select("SELECT id, sku_id, quantity, state, store, user_id, refusal, branch_id FROM stock_ledger WHERE xid = #{xid}"
            + " AND reservation_key = #{reservationId} AND sku_id = #{skuId} AND store = 'REDIS'"
            + " AND state IN ('CONFIRMED', 'CANCELLED')")
    LedgerRow endedInRedis(@Param("xid") String xid, @Param("reservationId") String reservationId,
                           @Param("skuId") String skuId);

    /** The rows of one reservation, every SKU. */
    @Select("SELECT id, sku_id, quantity, state, store, user_id, refusal, branch_id FROM stock_ledger WHERE xid = #{xid}"
            + " AND reservation_key = #{reservationId}")
    java.util.List<LedgerRow> rowsOfReservation(@Param("xid") String xid, @Param("reservationId") String reservationId);

    /**
     * Ends a TRIED row of the MySQL store ({@code state} CONFIRMED or CANCELLED) and marks it for mirroring to Redis.
     * @return 1 when moved
     */
    @Update("UPDATE stock_ledger SET state = #{state}, redis_mirrored = 0 WHERE id = #{id} AND state = 'TRIED'")
    int endHeld(@Param("id") long id, @Param("state") String state);

    /**
     * Units the buyer holds of the SKU in either store as MySQL knows them (reservations open or confirmed), leaving
     * out the reservation being tried.
     */
    @Select("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = #{skuId} AND user_id = #{userId}"
            + " AND state IN ('TRIED', 'CONFIRMED') AND NOT (xid = #{xid} AND reservation_key = #{reservationId})")
    long held(@Param("skuId") String skuId, @Param("userId") String userId, @Param("xid") String xid,
              @Param("reservationId") String reservationId);

    /**
     * The MySQL store's reservations TRIED since before {@code seconds} ago, of one SKU or (null) of all: sku_id, xid,
     * reservation_key, quantity, age (seconds).
     */
    @Select({"<script>SELECT sku_id, xid, reservation_key, quantity,"
            + " TIMESTAMPDIFF(SECOND, created_at, CURRENT_TIMESTAMP(3)) AS age FROM stock_ledger"
            + " WHERE store = 'MYSQL' AND state = 'TRIED'<if test='skuId != null'> AND sku_id = #{skuId}</if>"
            + " AND created_at &lt; CURRENT_TIMESTAMP(3) - INTERVAL #{seconds} SECOND ORDER BY created_at LIMIT 100",
            "</script>"})
    java.util.List<java.util.Map<String, Object>> heldSince(@Param("skuId") String skuId, @Param("seconds") long seconds);

    /** Per SKU, the units of the MySQL store's reservations TRIED and CONFIRMED: sku_id, tried, confirmed. */
    @Select("SELECT sku_id, SUM(CASE WHEN state = 'TRIED' THEN quantity ELSE 0 END) AS tried,"
            + " SUM(CASE WHEN state = 'CONFIRMED' THEN quantity ELSE 0 END) AS confirmed FROM stock_ledger"
            + " WHERE store = 'MYSQL' GROUP BY sku_id")
    java.util.List<java.util.Map<String, Object>> reserveUnitsBySku();

    /** Rows of the MySQL store whose state Redis does not reflect yet, oldest first. */
    @Select("SELECT id, xid, reservation_key, sku_id, quantity, state, user_id, refusal FROM stock_ledger"
            + " WHERE store = 'MYSQL' AND redis_mirrored = 0 ORDER BY id LIMIT #{limit}")
    java.util.List<UnmirroredRow> unmirrored(@Param("limit") int limit);

    /** Redis reflects the row in this state now. @return 1 unless the row moved on meanwhile (it is mirrored again) */
    @Update("UPDATE stock_ledger SET redis_mirrored = 1 WHERE id = #{id} AND state = #{state}")
    int mirrored(@Param("id") long id, @Param("state") String state);

    /** Every ledger row of one global transaction, as {@code sku_id}, {@code state}, {@code quantity}. */
    @Select("SELECT sku_id, state, quantity FROM stock_ledger WHERE xid = #{xid} ORDER BY sku_id")
    java.util.List<java.util.Map<String, Object>> rowsOf(@Param("xid") String xid);

    /** Units the ledger holds as CONFIRMED for this SKU: what MySQL's sold count must equal. */
    /** The MySQL store's rows of the SKU with a buyer: xid, reservationId, quantity, userId, state. */
    @Select("SELECT xid, reservation_key AS reservationId, quantity, user_id AS userId, state FROM stock_ledger"
            + " WHERE sku_id = #{skuId} AND store = 'MYSQL' AND user_id IS NOT NULL ORDER BY id")
    java.util.List<java.util.Map<String, Object>> mysqlStoreRows(@Param("skuId") String skuId);

    /** Each buyer's units of the SKU: CONFIRMED rows of both stores and the MySQL store's TRIED ones (userId, units). */
    @Select("SELECT user_id AS userId, SUM(quantity) AS units FROM stock_ledger WHERE sku_id = #{skuId}"
            + " AND user_id IS NOT NULL AND (state = 'CONFIRMED' OR (store = 'MYSQL' AND state = 'TRIED'))"
            + " GROUP BY user_id")
    java.util.List<java.util.Map<String, Object>> unitsByBuyer(@Param("skuId") String skuId);

    /**
     * The SKU's buyers who bought more than {@code limit} units, in CONFIRMED rows of either store, most first (at most
     * 100): {@code userId}, {@code units}.
     */
    @Select("SELECT user_id AS userId, SUM(quantity) AS units FROM stock_ledger WHERE sku_id = #{skuId}"
            + " AND state = 'CONFIRMED' AND user_id IS NOT NULL GROUP BY user_id HAVING SUM(quantity) > #{limit}"
            + " ORDER BY units DESC, userId LIMIT 100")
    java.util.List<java.util.Map<String, Object>> aboveLimit(@Param("skuId") String skuId, @Param("limit") long limit);

    /**
     * Rows of the SKU whose end is not in yet: reservations still open (TRIED), and the MySQL store's rows Redis has
     * still to reflect. A closed SKU is swept from Redis only at 0.
     */
    @Select("SELECT (SELECT COUNT(*) FROM stock_ledger WHERE sku_id = #{skuId} AND state = 'TRIED')"
            + " + (SELECT COUNT(*) FROM stock_ledger WHERE store = 'MYSQL' AND redis_mirrored = 0"
            + " AND sku_id = #{skuId})")
    long unsettledOf(@Param("skuId") String skuId);

    @Select("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = #{skuId} AND state = 'CONFIRMED'")
    long confirmedUnits(@Param("skuId") String skuId);

    /** Units of the MySQL store's reservations of this SKU in one state (its {@code reserved}, its {@code allotment_sold}). */
    @Select("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = #{skuId} AND store = 'MYSQL'"
            + " AND state = #{state}")
    long reserveUnits(@Param("skuId") String skuId, @Param("state") String state);

    /**
     * The TRIED rows of many Tries' events in one statement (one commit in autocommit). A row whose (xid, reservation,
     * SKU) exists already, in whatever state, is left as it is, and so is the second of two lines with the same key.
     * At least one line; the rows are written in the lines' order, so concurrent callers that sort their lines by
     * key take the rows' locks in one order. @return rows written; fewer than the lines when some existed
     */
    @Insert({"<script>INSERT IGNORE INTO stock_ledger (xid, reservation_key, branch_id, sku_id, quantity, state, store,"
            + " user_id) VALUES <foreach collection='events' item='e' separator=','>(#{e.xid}, #{e.reservationId},"
            + " #{e.branchId}, #{e.skuId}, #{e.quantity}, 'TRIED', #{e.store}, #{e.userId})</foreach>", "</script>"})
    int insertTriedEvents(@Param("events") java.util.List<TriedEvent> events);
}
