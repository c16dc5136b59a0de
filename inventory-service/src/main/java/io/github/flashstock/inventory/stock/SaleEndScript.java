package io.github.flashstock.inventory.stock;

import io.github.flashstock.inventory.redis.Scripts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The end of a SKU's sale in Redis: {@code lua/close.lua} marks its stock hash closed, and {@code lua/sweep.lua}
 * removes every key of it once nothing of the sale is left to end. The keys are found with {@code SCAN MATCH
 * inv:{<sku>}*} on the server that holds the SKU's slot (every key of a SKU shares it), {@value #BATCH} at a time.
 */
@Component
public class SaleEndScript {

    /** Keys handed to one call of {@code sweep.lua}, and asked of one {@code SCAN} step. */
    static final int BATCH = 500;

    private static final RedisScript<List<Long>> CLOSE = Scripts.load("close.lua");
    private static final RedisScript<List<Long>> SWEEP = Scripts.load("sweep.lua");

    /** {@code close.lua}'s reply codes, as its header lists them. */
    public enum Close {
        CLOSED, UNKNOWN_SKU
    }

    /** {@code close.lua}'s answer: whether the stock hash was there, and what Redis still holds of the sale. */
    public record Closed(boolean known, long reserved, long open) {
    }

    /** {@code sweep.lua}'s reply codes, as its header lists them. */
    public enum Sweep {
        SWEPT, NOT_CLOSED, NOT_OVER, UNKNOWN_SKU
    }

    /** What a sweep came to, and how many keys it removed. */
    public record Swept(Sweep code, long removed) {

        /** Redis holds nothing of the SKU any more. */
        public boolean done() {
            return code == Sweep.SWEPT || code == Sweep.UNKNOWN_SKU;
        }
    }

    private final StringRedisTemplate redis;

    public SaleEndScript(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Marks the SKU's stock hash closed: {@code try.lua} refuses its Tries from now on. */
    public Closed close(String skuId) {
        List<Long> reply = redis.execute(CLOSE, List.of(StockKeys.stock(skuId)));
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Close.values().length) {
            throw Scripts.unknownCode("close.lua", reply);
        }
        return new Closed(Close.values()[code] == Close.CLOSED, Scripts.at(reply, 1), Scripts.at(reply, 2));
    }

    /**
     * Removes every key of the closed SKU, the stock hash last, unless {@code sweep.lua} finds the sale not over
     * (or not closed): then it stops at that batch, and what it removed before stays removed (keys of a closed SKU
     * whose record the sale no longer needs, see {@code sweep.lua}).
     */
    public Swept sweep(String skuId) {
        String stock = StockKeys.stock(skuId);
        List<String> keys = keysOf(skuId);
        keys.remove(stock);
        long removed = 0;
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<String> batch = new ArrayList<>();
            batch.add(stock);
            batch.addAll(keys.subList(from, Math.min(from + BATCH, keys.size())));
            Swept step = run(batch, false);
            if (!step.done()) {
                return new Swept(step.code(), removed);
            }
            removed += step.removed();
        }
        Swept last = run(List.of(stock), true);
        return new Swept(last.code(), removed + last.removed());
    }

    /** Every key of the SKU that its server holds now ({@code SCAN MATCH inv:{<sku>}*}, on the slot's server). */
    public List<String> keysOf(String skuId) {
        String stock = StockKeys.stock(skuId);
        ScanOptions options = ScanOptions.scanOptions().match(stock + "*").count(BATCH).build();
        return redis.execute((RedisCallback<List<String>>) connection -> {
            List<String> found = new ArrayList<>();
            try (Cursor<byte[]> cursor = scan(connection, stock, options)) {
                while (cursor.hasNext()) {
                    String key = new String(cursor.next(), StandardCharsets.UTF_8);
                    // the pattern also matches the stock key with more after its brace; only the SKU's own keys count
                    if (key.equals(stock) || key.startsWith(stock + ":")) {
                        found.add(key);
                    }
                }
            }
            return found;
        });
    }

    private static Cursor<byte[]> scan(RedisConnection connection, String stock, ScanOptions options) {
        if (connection instanceof RedisClusterConnection cluster) {
            return cluster.scan(cluster.clusterGetNodeForKey(stock.getBytes(StandardCharsets.UTF_8)), options);
        }
        return connection.keyCommands().scan(options);
    }

    private Swept run(List<String> keys, boolean withStock) {
        List<Long> reply = redis.execute(SWEEP, keys, withStock ? "1" : "0");
        int code = (int) Scripts.at(reply, 0);
        if (code < 0 || code >= Sweep.values().length) {
            throw Scripts.unknownCode("sweep.lua", reply);
        }
        return new Swept(Sweep.values()[code], Scripts.at(reply, 1));
    }
}
