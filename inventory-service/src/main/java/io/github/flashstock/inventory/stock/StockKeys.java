package io.github.flashstock.inventory.stock;

import java.util.Optional;

/**
 * The one place that names a SKU's Redis keys. The SKU id is a Redis Cluster hash tag, so everything about one
 * SKU (stock hash, segments, fence records, buyer counters) lives in one slot, and different SKUs spread over
 * the cluster. The scripts get the stock key in {@code KEYS} and derive every other key of the SKU from it, in the
 * same shapes as here (the one exception to "every key in KEYS": they share its hash tag, so its slot, which
 * {@code StockKeysTest} checks; the script ITs read what the scripts wrote through these names).
 */
public final class StockKeys {

    /**
     * A Seata XID as fence keys take it: the coordinator's address (an IPv6 one has colons), its port, the
     * transaction's number. Anything else is refused before it gets near a key.
     */
    public static final String XID = "[A-Za-z0-9.\\[\\]:_-]{1,100}:[0-9]{1,5}:[0-9]{1,19}";

    private StockKeys() {
    }

    /** {@code inv:{<sku>}}: the SKU's stock hash. */
    public static String stock(String skuId) {
        if (skuId.indexOf('{') >= 0 || skuId.indexOf('}') >= 0) {
            throw new IllegalArgumentException("a SKU id cannot contain braces: " + skuId);
        }
        return "inv:{" + skuId + "}";
    }

    public static String segment(String skuId, int index) {
        return stock(skuId) + ":seg:" + index;
    }

    public static String fence(String skuId, String xid, String reservationId) {
        return stock(skuId) + ":tx:" + xid + ":" + reservationId;
    }

    /** The transaction and reservation a fence key of this SKU names. */
    public record Fence(String xid, String reservationId) {
    }

    /** Reads a key made by {@link #fence}; empty for any other key. */
    public static Optional<Fence> parseFence(String skuId, String key) {
        String prefix = stock(skuId) + ":tx:";
        int split = key.lastIndexOf(':');
        if (!key.startsWith(prefix) || split < prefix.length()) {
            return Optional.empty();
        }
        return Optional.of(new Fence(key.substring(prefix.length(), split), key.substring(split + 1)));
    }

    public static String buyer(String skuId, String userId) {
        return stock(skuId) + ":buyer:" + userId;
    }

    /** The set of the SKU's open (TRIED) fence keys. */
    public static String open(String skuId) {
        return stock(skuId) + ":open";
    }

    /** Confirms that found no record and too few units: fence key -> units sold twice (see {@code confirm.lua}). */
    public static String oversold(String skuId) {
        return stock(skuId) + ":oversold";
    }

    /** The stream of the SKU's stock events, written by the phase scripts (see {@code try.lua}). */
    public static String events(String skuId) {
        return stock(skuId) + ":events";
    }

    /** The marker of one restock operation. */
    public static String restockOperation(String skuId, String operationId) {
        return stock(skuId) + ":op:" + operationId;
    }

    /** The marker of a handover's Redis step ({@code handover.lua}): the units it moved, under its operation id. */
    public static String handover(String skuId, String operationId) {
        return stock(skuId) + ":handover:" + operationId;
    }
}
