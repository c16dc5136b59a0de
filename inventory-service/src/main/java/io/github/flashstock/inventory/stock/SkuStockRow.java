package io.github.flashstock.inventory.stock;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/**
 * One {@code sku_stock} row, in the words both stores share: {@code stocked} units ever stocked, {@code sold} by
 * Confirms (on either path), {@code reserved} by open Tries on the MySQL store; {@code perUserLimit} null for none.
 * The allotment: {@code allotmentAvailable} units only the MySQL store may take, {@code allotmentIncoming} units a
 * handover is moving there from Redis, {@code allotmentSold} units it sold (part of {@code sold}). Redis holds the
 * rest ({@link #redisAvailable()}, {@link #redisSold()}).
 * <p>
 * The entity of {@link SkuStockMapper}'s {@code BaseMapper}: MyBatis builds it through its constructor, the columns in
 * the order of its components (the key first).
 */
@TableName("sku_stock")
public record SkuStockRow(@TableId(value = "sku_id", type = IdType.INPUT) String skuId, long stocked, long sold, long reserved, long allotmentAvailable,
                          long allotmentIncoming, long allotmentSold, Integer perUserLimit, long version) {

    /** {@code stocked - sold - reserved}: units either store may still sell; never negative (the table checks it). */
    public long available() {
        return stocked - sold - reserved;
    }

    /** Units Redis may sell once its open reservations settle: {@link #available()} less the allotment's. */
    public long redisAvailable() {
        return available() - allotmentAvailable - allotmentIncoming;
    }

    /** Units sold by reservations that Redis held. */
    public long redisSold() {
        return sold - allotmentSold;
    }

    /** Units handed to Redis, as Redis counts {@code stocked}: everything the MySQL store does not hold or sold. */
    public long redisStocked() {
        return stocked - allotmentSold - reserved - allotmentAvailable - allotmentIncoming;
    }
}
