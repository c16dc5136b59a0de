package io.github.flashstock.inventory.catalog;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.allotment.LiveAllotments;
import io.github.flashstock.inventory.rebuild.RedisRebuilds;
import io.github.flashstock.inventory.rebuild.ReloadOutcome;
import io.github.flashstock.inventory.rebuild.ReloadScript;
import io.github.flashstock.inventory.stock.InitOutcome;
import io.github.flashstock.inventory.stock.InitScript;
import io.github.flashstock.inventory.stock.LimitScript;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.RestockOutcome;
import io.github.flashstock.inventory.stock.RestockScript;
import io.github.flashstock.inventory.stock.SalesRecord;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.DependsOn;
import org.springframework.stereotype.Service;

/**
 * SKUs as a whole: creating them in MySQL and Redis, restocking, loading a SKU that MySQL knows into Redis, and
 * the side-by-side view of both stores.
 */
@Service
// before anyone reads or sells stock: it is in the shared vocabulary, on servers that keep what they acknowledge
@DependsOn({"stockModelMigration", "redisDurability"})
public class StockCatalog {

    private static final Logger log = LoggerFactory.getLogger(StockCatalog.class);
    private static final Duration REMEMBER_RESTOCK = Duration.ofDays(7);

    private final SkuStockMapper skus;
    private final InitScript init;
    private final RestockScript restock;
    private final RedisStockReader reader;
    private final ReloadScript reload;
    private final SalesRecord record;
    private final RedisRebuilds rebuilds;
    private final LiveAllotments allotments;
    private final LimitScript limits;
    private final Map<String, CompletableFuture<Boolean>> loading = new ConcurrentHashMap<>();

    public StockCatalog(SkuStockMapper skus, InitScript init, RestockScript restock, RedisStockReader reader,
                        ReloadScript reload, SalesRecord record, RedisRebuilds rebuilds, LiveAllotments allotments,
                        LimitScript limits) {
        this.limits = limits;
        this.rebuilds = rebuilds;
        this.allotments = allotments;
        this.record = record;
        this.skus = skus;
        this.init = init;
        this.restock = restock;
        this.reader = reader;
        this.reload = reload;
    }

    /** What a change of a SKU's per-user limit came to. */
    public enum LimitChange {
        /** Both stores have the new limit (or MySQL has it and Redis will load it with the SKU). */
        CHANGED,
        UNKNOWN_SKU,
        /** MySQL has the new limit; Redis's rebuild of the SKU is running: the same request again finishes it. */
        REBUILDING
    }

    /**
     * Sets the SKU's per-user limit ({@code null}: none), live: MySQL's row first (a load or rebuild of the SKU reads
     * it there), then Redis's stock hash ({@code lua/limit.lua}). What buyers hold already stays theirs; their next
     * Try is compared with the new limit, in either store (docs/design.md, "One buyer count"). Idempotent.
     */
    public LimitChange changeLimit(String skuId, Integer limit) {
        if (skus.setLimit(skuId, limit) == 0) {
            return LimitChange.UNKNOWN_SKU;
        }
        return switch (limits.run(skuId, limit)) {
            case SET, UNKNOWN_SKU -> LimitChange.CHANGED;
            case REBUILDING -> LimitChange.REBUILDING;
        };
    }

    /** Where a SKU's sale stands. */
    public enum SaleState {
        /** Selling (or able to). */
        OPEN,
        /** Closed: sells nothing more; Redis still holds its keys until nothing of its sale is left to end. */
        CLOSED,
        /** Closed, and Redis let go of its keys: it is in MySQL only, for good. */
        SWEPT,
        UNKNOWN
    }

    /** Where the SKU's sale stands, as MySQL records it. */
    public SaleState saleState(String skuId) {
        String state = skus.saleState(skuId);
        return state == null ? SaleState.UNKNOWN : SaleState.valueOf(state);
    }

    /** Whether MySQL knows the SKU. */
    public boolean knows(String skuId) {
        return skus.find(skuId) != null;
    }

    /** Every SKU MySQL knows, by id. */
    public List<String> skuIds() {
        return skus.skuIds();
    }

    /** One page of the SKUs MySQL knows whose id starts with {@code prefix} (null: all), by id ({@code page} from 1). */
    public IPage<SkuStockRow> page(String prefix, long page, long size) {
        return skus.byId(prefix, page, size);
    }

    /** What creating a SKU found. */
    public enum Creation { CREATED, ALREADY_EXISTS }

    /**
     * Creates the SKU in MySQL, then in Redis; an existing SKU is never overwritten in either. Its allotment
     * ({@link LiveAllotments}) starts in MySQL's row, and Redis gets the rest: the two stores never count a unit twice,
     * whichever step a crash cuts off (a SKU MySQL knows and Redis lacks is loaded from MySQL's row).
     */
    public Creation create(String skuId, long stocked, Integer perUserLimit, int segments) {
        long allotment = allotments.targetFor(skuId, stocked);
        boolean created = skus.create(skuId, stocked, perUserLimit, allotment) == 1;
        if (!created) {
            return Creation.ALREADY_EXISTS;
        }
        InitOutcome outcome = init.run(skuId, stocked - allotment, 0, perUserLimit == null ? 0 : perUserLimit,
                segments);
        if (outcome instanceof InitOutcome.AlreadyExists existing) {
            log.warn("SKU {} was new in MySQL but already had stock in Redis ({}); Redis left as it was", skuId,
                    existing);
        }
        return Creation.CREATED;
    }

    /**
     * Adds units under {@code operationId}, once in each store however often the request is retried: first the
     * durable record (MySQL: the operation's row and {@code stocked}, one transaction), then Redis
     * ({@code restock.lua}, its own marker). A retry after a failure between the two steps completes the missing one.
     * A SKU that MySQL knows but Redis has not loaded yet is loaded from MySQL, units included.
     *
     * @return the SKU's stock in Redis afterwards, empty when the SKU is unknown
     */
    public Optional<RedisStock> restock(String skuId, long units, String operationId) {
        if (skus.find(skuId) == null) {
            return Optional.empty();
        }
        if (!record.restocked(skuId, operationId, units)) {
            log.info("restock {} of SKU {} was recorded in MySQL before: a replay", operationId, skuId);
        }
        if (restock.run(skuId, units, operationId, REMEMBER_RESTOCK) instanceof RestockOutcome.UnknownSku) {
            loadIntoRedis(skuId);
            restock.remember(skuId, operationId, units, REMEMBER_RESTOCK);
        }
        return reader.read(skuId);
    }

    /**
     * Loads a SKU that MySQL knows but Redis lacks, for a restock: Redis gets the units MySQL has available
     * (neither sold nor reserved). (A Try or the start that finds one hands it to {@link SkuRebuilds}
     * instead, which first waits out the transactions that could hold units Redis lost.) One load per SKU at a time in this instance; across instances the
     * init script's never-overwrite rule makes a second load a no-op.
     *
     * @return true when the SKU now has stock in Redis
     */
    public boolean loadIntoRedis(String skuId) {
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> running = loading.putIfAbsent(skuId, mine);
        if (running != null) {
            return running.join();
        }
        try {
            boolean loaded = rebuilds.rebuild(skuId, Duration.ofSeconds(30), basis -> {
                if (basis.row() == null || basis.closed()) {
                    return false; // a closed SKU gets no stock in Redis again
                }
                InitOutcome outcome = init.run(skuId, basis.available(), basis.sold(), basis.limit(), 1,
                        basis.handovers());
                if (outcome instanceof InitOutcome.Created) {
                    log.info("loaded SKU {} into Redis from MySQL: {} available, {} sold", skuId, basis.available(),
                            basis.sold());
                }
                return true;
            }).orElseThrow(() -> new IllegalStateException("SKU " + skuId + " is being rebuilt in Redis right now;"
                    + " try again in a moment"));
            mine.complete(loaded);
            return loaded;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(skuId);
        }
    }

    /** What a rebuild found. */
    public sealed interface Rebuild {
        record Done(ReloadOutcome outcome) implements Rebuild {
        }

        record InProgress() implements Rebuild {
        }

        record Unknown() implements Rebuild {
        }
    }

    /**
     * Rebuilds the SKU's Redis state from MySQL plus the reservations open in Redis; single-flight across
     * instances (a Redis lock per SKU).
     */
    public Rebuild rebuild(String skuId) {
        return rebuilds.<Rebuild>rebuild(skuId, Duration.ofSeconds(30), basis -> basis.row() == null
                        ? new Rebuild.Unknown()
                        : new Rebuild.Done(reload.runLocked(skuId, basis.stocked(), basis.sold(), basis.notRedis(),
                        basis.limit(), basis.handovers(), basis.closed())))
                .orElseGet(Rebuild.InProgress::new);
    }

    /** Both stores' view of a SKU; empty when neither knows it. */
    public Optional<StockView> view(String skuId) {
        Optional<RedisStock> redis = reader.read(skuId);
        Optional<SkuStockRow> mysql = Optional.ofNullable(skus.find(skuId));
        if (redis.isEmpty() && mysql.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StockView(skuId, redis.orElse(null), mysql.orElse(null)));
    }

    /** A SKU in both stores; either side may be null when that store does not know it. */
    public record StockView(String skuId, RedisStock redis, SkuStockRow mysql) {
    }
}
