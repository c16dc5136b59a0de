package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flashstock.clients.InventoryApi;
import io.github.flashstock.clients.ServiceHttp;
import java.util.List;

/**
 * One SKU's stock as {@code GET /skus/{skuId}/stock} shows it, in the words both stores share: Redis's counts, and
 * MySQL's record with the MySQL store's allotment (the units only the MySQL store sells, those on their way there, those it
 * sold; MySQL's {@code reserved} are the MySQL store's open Tries). {@code stocked} is MySQL's: every unit ever put
 * in; Redis's own {@code stocked} is its share of them.
 */
public record StockCounts(long stocked, long redisStocked, long redisAvailable, long redisReserved, long redisSold,
                          long sold, long mysqlReserved, long allotmentAvailable, long allotmentIncoming, long allotmentSold) {

    /** The counts in a stock view; a store the view lacks counts as zeros. */
    public static StockCounts of(InventoryApi.StockView stock) {
        InventoryApi.RedisSide redis = stock.redis() != null ? stock.redis()
                : new InventoryApi.RedisSide(0, 0, 0, 0, 0, 0, List.of());
        InventoryApi.MysqlSide mysql = stock.mysql() != null ? stock.mysql()
                : new InventoryApi.MysqlSide(0, 0, 0, 0, null, null, 0);
        InventoryApi.Allotment allotment = mysql.allotment() != null ? mysql.allotment()
                : new InventoryApi.Allotment(0, 0, 0);
        return new StockCounts(mysql.stocked(), redis.stocked(), redis.available(), redis.reserved(), redis.sold(),
                mysql.sold(), mysql.reserved(), allotment.available(), allotment.incoming(), allotment.sold());
    }

    /** The counts in a stock view read as JSON. */
    public static StockCounts of(JsonNode stock) {
        return of(ServiceHttp.json().convertValue(stock, InventoryApi.StockView.class));
    }

    /** Units held by open Tries, in either store. */
    public long reserved() {
        return redisReserved + mysqlReserved;
    }

    /**
     * Units the two stores do not account for together: stocked less what Redis holds in any state and what the MySQL
     * store holds (its allotment, units on their way to it, its open Tries, its sales). 0 when every unit is somewhere
     * once.
     */
    public long unaccounted() {
        return Math.abs(stocked - redisAvailable - redisReserved - redisSold - allotmentAvailable - allotmentIncoming
                - mysqlReserved - allotmentSold);
    }

    /**
     * The stores tell one story: MySQL's sold is Redis's sales and the allotment's, and Redis was given exactly the units
     * the MySQL store does not hold.
     */
    public boolean agree() {
        return redisSold + allotmentSold == sold
                && redisStocked == stocked - allotmentAvailable - allotmentIncoming - mysqlReserved - allotmentSold;
    }
}
