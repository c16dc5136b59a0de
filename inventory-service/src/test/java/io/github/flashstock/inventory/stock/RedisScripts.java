package io.github.flashstock.inventory.stock;

import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.inventory.mysqlstore.MirrorScript;
import io.github.flashstock.inventory.rebuild.EpochScript;
import io.github.flashstock.inventory.rebuild.RebuildScript;
import io.github.flashstock.inventory.rebuild.ReloadScript;
import io.github.flashstock.inventory.reservation.CancelScript;
import io.github.flashstock.inventory.reservation.ConfirmScript;
import io.github.flashstock.inventory.reservation.TryCoalescer;
import io.github.flashstock.inventory.reservation.TryCoalescing;
import io.github.flashstock.inventory.reservation.TryScript;
import io.github.flashstock.inventory.segments.ResegmentScript;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The script wrappers wired to the devstack's Redis, without a Spring context; plus fixtures for SKUs. */
public final class RedisScripts implements AutoCloseable {

    public static final Duration RETENTION = Duration.ofHours(1);

    public final LettuceConnectionFactory factory;
    public final StringRedisTemplate redis;
    public final TryScript tryScript;
    /** Coalescing: up to 16 Tries per call, 2 calls under way per slot, no linger. */
    public final TryCoalescer coalescer;
    /** Coalescing with a linger: up to 32 Tries per call, 2 calls under way per slot, a linger of 200 µs. */
    public final TryCoalescer lingering;
    public final ConfirmScript confirm;
    public final CancelScript cancel;
    public final MirrorScript mirror;
    public final io.github.flashstock.inventory.reservation.BookScript book;
    public final InitScript init;
    public final RestockScript restock;
    public final ResegmentScript resegment;
    public final ReloadScript reload;
    public final RebuildScript recover;
    public final EpochScript epoch;
    public final RedisStockReader reader;

    public RedisScripts(Endpoints endpoints) {
        this(endpoints.redisHost(), endpoints.redisPort());
    }

    /** On one Redis server: the devstack's standalone one, or one node of its Cluster, talked to directly. */
    public RedisScripts(String host, int port) {
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        redis = new StringRedisTemplate(factory);
        tryScript = new TryScript(redis);
        coalescer = new TryCoalescer(tryScript, new TryCoalescing(16, 2, Duration.ofSeconds(10)),
                new SimpleMeterRegistry());
        lingering = new TryCoalescer(tryScript, new TryCoalescing(32, 2, Duration.ofSeconds(10),
                Duration.ofNanos(200_000)), new SimpleMeterRegistry());
        confirm = new ConfirmScript(redis);
        cancel = new CancelScript(redis);
        mirror = new MirrorScript(redis);
        book = new io.github.flashstock.inventory.reservation.BookScript(redis);
        init = new InitScript(redis);
        restock = new RestockScript(redis);
        resegment = new ResegmentScript(redis);
        reload = new ReloadScript(redis);
        recover = new RebuildScript(redis);
        epoch = new EpochScript(redis);
        reader = new RedisStockReader(redis);
    }

    /** A new SKU with {@code units} available, no limit, one segment. */
    public String skuWithAvailable(long units) {
        return sku(units, 0, 1);
    }

    public String sku(long units, int limit, int segments) {
        String sku = "sku-" + UUID.randomUUID();
        init.run(sku, units, 0, limit, segments);
        return sku;
    }

    public static String xid() {
        return "127.0.0.1:8091:" + UUID.randomUUID();
    }

    /** {@code lines(sku, 2, other, 1)}: SKU ids and quantities, in pairs. */
    public static List<StockLine> lines(Object... skuAndQuantity) {
        List<StockLine> lines = new java.util.ArrayList<>();
        for (int i = 0; i + 1 < skuAndQuantity.length; i += 2) {
            lines.add(new StockLine((String) skuAndQuantity[i], (Integer) skuAndQuantity[i + 1]));
        }
        return lines;
    }

    public RedisStock stock(String sku) {
        return reader.read(sku).orElseThrow();
    }

    @Override
    public void close() {
        coalescer.destroy();
        lingering.destroy();
        factory.destroy();
    }
}
