package io.github.flashstock.inventory.allotment;

import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps every SKU's allotment at its target ({@link LiveAllotments}) while Redis is healthy: a round reads the
 * rows concerned in one query and moves units through {@link StockHandover}, into the allotment when it holds fewer
 * than its target (after an outage sold from it, a restock, a larger target) and back to Redis when it holds more.
 * A round runs every {@code inventory.mysql-store.rebalance-interval}, when the allotments' settings change, and when the
 * Redis breaker closes again. While this instance cannot reach Redis it moves nothing (a handover needs Redis's step)
 * and only records the levels it reads ({@link AllotmentLevels}).
 *
 * <p>Every instance rebalances. A move's operation id is the SKU and the row's version, so two instances reading the
 * same row make one move; one that reads a later row sees the move done.
 */
@Component
public class AllotmentRebalancer implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(AllotmentRebalancer.class);

    private final SkuStockMapper skus;
    private final LiveAllotments allotments;
    private final AllotmentLevels levels;
    private final StockHandover handover;
    private final RedisHealth redis;
    private final RedisStockReader reader;
    private final long intervalMillis;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "allotment-rebalancer");
        t.setDaemon(true);
        return t;
    });

    AllotmentRebalancer(SkuStockMapper skus, LiveAllotments allotments, AllotmentLevels levels, StockHandover handover,
                      RedisHealth redis, RedisStockReader reader,
                      @Value("${inventory.mysql-store.rebalance-interval:2s}") java.time.Duration interval) {
        this.skus = skus;
        this.allotments = allotments;
        this.levels = levels;
        this.handover = handover;
        this.redis = redis;
        this.reader = reader;
        this.intervalMillis = interval.toMillis();
        allotments.whenChanged(this::soon);
        redis.whenHealthyAgain(this::soon);
    }

    @EventListener(ApplicationReadyEvent.class)
    void started() {
        worker.scheduleWithFixedDelay(this::scheduledRound, 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** A round as soon as the worker is free (several requests meanwhile make one round). */
    public void soon() {
        if (queued.compareAndSet(false, true)) {
            worker.execute(() -> {
                queued.set(false);
                scheduledRound();
            });
        }
    }

    private void scheduledRound() {
        try {
            round();
        } catch (RuntimeException e) {
            log.warn("allotment rebalance round failed, next one in {} ms: {}", intervalMillis, e.toString());
        }
    }

    /** One round: reads the rows concerned and moves what is worth moving. @return the moves made */
    public synchronized int round() {
        AllotmentPlan plan = allotments.inForce();
        int moves = 0;
        for (SkuStockRow row : skus.reserveRows(!plan.noDefault(), plan.perSku().keySet())) {
            levels.saw(row.skuId(), row.allotmentAvailable());
            if (redis.healthy() && rebalance(row, plan)) {
                moves++;
            }
        }
        return moves;
    }

    private boolean rebalance(SkuStockRow row, AllotmentPlan plan) {
        AllotmentTarget target = plan.targetFor(row.skuId());
        long wanted = target.unitsFor(row.available());
        long holds = row.allotmentAvailable() + row.allotmentIncoming();
        if (!target.worthMoving(holds, wanted)) {
            return false;
        }
        StockHandover.Direction direction;
        long units;
        if (wanted > holds) {
            direction = StockHandover.Direction.TO_MYSQL;
            // no more than Redis has available now: its open reservations stay its own
            long redisAvailable = reader.read(row.skuId()).map(RedisStock::available).orElse(0L);
            units = Math.min(wanted - holds, Math.min(redisAvailable, row.redisAvailable()));
        } else {
            direction = StockHandover.Direction.TO_REDIS;
            units = Math.min(holds - wanted, row.allotmentAvailable());
        }
        if (units <= 0) {
            return false;
        }
        StockHandover.Result result = handover.handOver(row.skuId(), direction, units,
                "rebalance-" + row.skuId() + "-" + row.version(), "rebalancer (target " + target + ")");
        if (result instanceof StockHandover.Result.Done done) {
            levels.saw(row.skuId(), row.allotmentAvailable() + (direction == StockHandover.Direction.TO_MYSQL
                    ? done.row().moved() : -done.row().moved()));
            return true;
        }
        log.debug("allotment of {}: {} of {} unit(s) not moved now: {}", row.skuId(), direction, units, result);
        return false;
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
