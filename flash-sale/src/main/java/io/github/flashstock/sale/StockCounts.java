package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One SKU's stock as {@code GET /skus/{skuId}/stock} shows it, in the words both stores share: Redis's counts, and
 * MySQL's record with the MySQL reserve (the units only the MySQL store sells, those on their way there, those it
 * sold; MySQL's {@code reserved} are the MySQL store's open Tries). {@code stocked} is MySQL's: every unit ever put
 * in; Redis's own {@code stocked} is its share of them.
 */
public record StockCounts(long stocked, long redisStocked, long redisAvailable, long redisReserved, long redisSold,
                          long sold, long mysqlReserved, long reserveAvailable, long reserveIncoming, long reserveSold) {

    /** The counts in a stock view; a store the view lacks counts as zeros. */
    public static StockCounts of(JsonNode stock) {
        JsonNode redis = stock.path("redis");
        JsonNode mysql = stock.path("mysql");
        JsonNode reserve = mysql.path("reserve");
        return new StockCounts(mysql.path("stocked").asLong(), redis.path("stocked").asLong(),
                redis.path("available").asLong(), redis.path("reserved").asLong(), redis.path("sold").asLong(),
                mysql.path("sold").asLong(), mysql.path("reserved").asLong(), reserve.path("available").asLong(),
                reserve.path("incoming").asLong(), reserve.path("sold").asLong());
    }

    /** Units held by open Tries, in either store. */
    public long reserved() {
        return redisReserved + mysqlReserved;
    }

    /**
     * Units the two stores do not account for together: stocked less what Redis holds in any state and what the MySQL
     * store holds (its reserve, units on their way to it, its open Tries, its sales). 0 when every unit is somewhere
     * once.
     */
    public long unaccounted() {
        return Math.abs(stocked - redisAvailable - redisReserved - redisSold - reserveAvailable - reserveIncoming
                - mysqlReserved - reserveSold);
    }

    /**
     * The stores tell one story: MySQL's sold is Redis's sales and the reserve's, and Redis was given exactly the units
     * the MySQL store does not hold.
     */
    public boolean agree() {
        return redisSold + reserveSold == sold
                && redisStocked == stocked - reserveAvailable - reserveIncoming - mysqlReserved - reserveSold;
    }
}
