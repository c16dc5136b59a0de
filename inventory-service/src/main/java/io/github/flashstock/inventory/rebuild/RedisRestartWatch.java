package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.redis.RedisServers;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Notices a Redis restart or failover by itself, and hands every SKU it left stale to {@link SkuRebuilds}.
 *
 * <p>A Try of a stale SKU asks for its rebuild, but a restart that comes when no buyer asks for a SKU any more (the
 * end of a sale, a quiet SKU) would otherwise leave Redis's stale counts and reservations in place until someone does:
 * the reservations whose Confirm the lost writes took stay reserved in Redis, and Redis and MySQL disagree. So every
 * {@code inventory.rebuild.restart-check} (2 s) this reads the primaries' run ids ({@link RedisServers}); when they
 * differ from the last reading, every SKU MySQL knows whose Redis stock is not current (stale or missing) is handed to
 * the rebuild, as the warm-up does at start. A reading that fails changes nothing; the first one only remembers.
 */
@Component
class RedisRestartWatch implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RedisRestartWatch.class);

    private final Supplier<Optional<Set<String>>> runIds;
    private final Runnable sweep;
    private final long intervalMillis;
    private Set<String> last;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "redis-restart-watch");
        t.setDaemon(true);
        return t;
    });

    @Autowired
    RedisRestartWatch(RedisServers servers, SkuStockMapper skus, EpochScript epochs, SkuRebuilds rebuilds,
                      @Value("${inventory.rebuild.restart-check:2s}") Duration interval) {
        this(servers::runIds, () -> {
            int handed = 0;
            for (String skuId : skus.skuIds()) {
                if (epochs.run(skuId) != EpochScript.Code.CURRENT) {
                    rebuilds.found(skuId);
                    handed++;
                }
            }
            log.warn("{} SKU(s) stale or missing in Redis after its restart or failover, handed to the rebuild",
                    handed);
        }, interval);
    }

    RedisRestartWatch(Supplier<Optional<Set<String>>> runIds, Runnable sweep, Duration interval) {
        this.runIds = runIds;
        this.sweep = sweep;
        this.intervalMillis = interval.toMillis();
    }

    @EventListener(ApplicationReadyEvent.class)
    void started() {
        worker.scheduleWithFixedDelay(this::check, 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * One reading: the sweep when the run ids changed since the last reading that succeeded. A sweep that fails
     * leaves the last reading as it was, so the next check sweeps again.
     */
    void check() {
        try {
            Optional<Set<String>> now = runIds.get();
            if (now.isEmpty()) {
                return;
            }
            if (last != null && !last.equals(now.get())) {
                log.warn("Redis restarted or failed over (run ids {} are now {}): looking for stale SKUs", last,
                        now.get());
                sweep.run();
            }
            last = now.get();
        } catch (RuntimeException e) {
            log.warn("looking for SKUs a Redis restart left stale failed, again in {} ms: {}", intervalMillis,
                    e.toString());
        }
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
