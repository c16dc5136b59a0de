package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

/**
 * Brings SKUs back from the durable record after their Redis server restarted or failed over.
 *
 * <p>Such a server may have lost writes it had acknowledged (the last second of an {@code everysec} AOF, what an
 * asynchronous replica had not received): Tries whose units the coordinator will still commit, Confirms whose
 * units MySQL already counts. The scripts notice it themselves (a SKU's {@code epoch} is the run id of the server
 * it was built on) and refuse to sell such a SKU; this class then rebuilds it, in rounds:
 * <ol>
 * <li>take the SKUs asked for so far, and every other SKU MySQL knows whose stock is stale too (one loss makes all
 * of a server's SKUs stale: one wait serves them all); ask the coordinator which global transactions are
 * open;</li>
 * <li>wait until every one of those has ended. Any transaction that could hold a lost write began before the loss,
 * so before this question, and its Confirm or Cancel has now run; MySQL's {@code sold} and the ledger are final for
 * it. (Tries of the stale SKUs were refused meanwhile, so no new reservation of them exists.)</li>
 * <li>per SKU, the ones a Try asked for first, under its rebuild lock: every reservation still open in Redis is
 * closed the way the ledger says (CONFIRMED, else cancelled), and the counters are set from MySQL
 * ({@code rebuild.lua}), which sells again.</li>
 * </ol>
 * A round that cannot finish (the coordinator unreachable, a transaction that does not end within
 * {@code inventory.rebuild.drain-timeout}) leaves its SKUs refused and tries again a little later.
 */
@Service
public class SkuRebuilds implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(SkuRebuilds.class);
    private static final Duration AGAIN_AFTER = Duration.ofSeconds(1);

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    private final RedisStockReader reader;
    private final RebuildScript script;
    private final EpochScript epochs;
    private final OpenTransactions coordinator;
    private final RebuildSettings settings;
    private final InventorySettings inventory;
    private final MeterRegistry meters;
    private final RedisRebuilds rebuilds;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    /** The pending SKUs a Try asked for (buyers wait for them), as against those a round found stale. */
    private final Set<String> asked = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean();
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sku-rebuilds");
        t.setDaemon(true);
        return t;
    });

    public SkuRebuilds(SkuStockMapper skus, StockLedgerMapper ledger, RedisStockReader reader,
                         RebuildScript script, EpochScript epochs, OpenTransactions coordinator,
                         RebuildSettings settings, InventorySettings inventory, MeterRegistry meters,
                         RedisRebuilds rebuilds) {
        this.rebuilds = rebuilds;
        this.skus = skus;
        this.ledger = ledger;
        this.reader = reader;
        this.script = script;
        this.epochs = epochs;
        this.coordinator = coordinator;
        this.settings = settings;
        this.inventory = inventory;
        this.meters = meters;
        meters.gauge("inventory.rebuild.pending", pending, Set::size);
    }

    /** A Try or a handover met a SKU that needs rebuilding: as {@link #request}. */
    @org.springframework.context.event.EventListener
    void on(io.github.flashstock.inventory.stock.RebuildNeeded needed) {
        request(needed.skuId());
    }

    /** Asks for the SKU to be rebuilt; returns at once. Asking again while it waits changes nothing. */
    public void request(String skuId) {
        asked.add(skuId);
        found(skuId);
    }

    /**
     * Asks for a SKU to be rebuilt that no buyer is waiting for yet (the warm-up's sweep at start): it comes after
     * those {@link #request}ed by Tries. Returns at once.
     */
    public void found(String skuId) {
        if (pending.add(skuId)) {
            log.warn("SKU {} is missing in Redis or was built on another Redis process (restart or failover"
                    + " since): refused until it is built from MySQL", skuId);
            start(Duration.ZERO);
        }
    }

    /** Nothing is waiting to be rebuilt and no round is running. */
    public boolean idle() {
        return pending.isEmpty() && !running.get();
    }

    private void start(Duration after) {
        if (running.compareAndSet(false, true)) {
            worker.schedule(this::round, after.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void round() {
        boolean cutShort = false;
        try {
            List<String> batch = new ArrayList<>(pending);
            if (!batch.isEmpty()) {
                // one loss makes every SKU of that server stale: one wait for all of them, not one per SKU
                for (String skuId : skus.skuIds()) {
                    if (!pending.contains(skuId) && epochs.run(skuId) == EpochScript.Code.STALE) {
                        pending.add(skuId);
                        batch.add(skuId);
                    }
                }
            }
            if (!batch.isEmpty() && drained()) {
                // the SKUs buyers asked for first: a loss can make thousands stale, and each rebuild takes a few
                // round trips to MySQL and Redis
                Set<String> first = Set.copyOf(asked);
                batch.sort(java.util.Comparator.comparing(skuId -> !first.contains(skuId)));
                Set<String> taken = Set.copyOf(batch);
                for (String skuId : batch) {
                    if (!first.contains(skuId) && !taken.containsAll(Set.copyOf(asked))) {
                        // a buyer now waits for a SKU this round did not take: a new round at once, with it first
                        // (the rest stays pending)
                        cutShort = true;
                        break;
                    }
                    if (rebuild(skuId)) {
                        pending.remove(skuId);
                        asked.remove(skuId);
                    }
                }
            }
        } catch (RuntimeException e) {
            log.error("rebuild round failed; trying again: {}", e.toString());
        } finally {
            running.set(false);
            if (!pending.isEmpty()) {
                start(cutShort ? Duration.ZERO : AGAIN_AFTER);
            }
        }
    }

    private boolean drained() {
        return Drain.await(coordinator, settings, pending, SkuRebuilds::pause);
    }

    private boolean rebuild(String skuId) {
        if (skus.sweptAt(skuId) != null) {
            return true; // its sale is closed and Redis let go of it: nothing to rebuild, not even its lock to take
        }
        Optional<RebuildScript.Outcome> done = rebuilds.rebuild(skuId, Duration.ofSeconds(30), basis -> {
            if (basis.row() == null || skus.sweptAt(skuId) != null) {
                // MySQL does not know it, or its sale is closed and Redis let go of it for good: nothing to build
                return new RebuildScript.NotStale();
            }
            List<String> confirmed = new ArrayList<>();
            for (RedisStockReader.OpenReservation open : reader.openReservations(skuId)) {
                if ("CONFIRMED".equals(ledger.state(open.xid(), open.reservationId(), skuId))) {
                    confirmed.add(StockKeys.fence(skuId, open.xid(), open.reservationId()));
                }
            }
            return script.runLocked(skuId, basis.stocked(), basis.sold(), basis.notRedis(), basis.limit(),
                    inventory.fenceRetention(), 1, confirmed, basis.handovers(), buyerCounts(skuId), basis.closed());
        });
        if (done.isEmpty()) {
            return false; // another rebuild holds the lock; the next round looks again
        }
        if (!(done.get() instanceof RebuildScript.Rebuilt r)) {
            return true;
        }
        meters.counter("inventory.rebuilds").increment();
        log.warn("SKU {} rebuilt from MySQL after a Redis restart or failover: {} available, {} sold; open"
                + " reservations closed: {} confirmed, {} cancelled", skuId, r.available(), r.sold(),
                r.closedConfirmed(), r.closedCancelled());
        return true;
    }

    /**
     * The SKU's buyers as the ledger has them, read after the drain: no reservation of the lost past is open, so
     * CONFIRMED rows of both stores and the MySQL store's TRIED ones are what each buyer holds.
     */
    private BuyerCounts buyerCounts(String skuId) {
        List<BuyerCounts.MysqlRow> rows = new ArrayList<>();
        for (java.util.Map<String, Object> r : ledger.mysqlStoreRows(skuId)) {
            rows.add(new BuyerCounts.MysqlRow(StockKeys.fence(skuId, (String) r.get("xid"),
                    (String) r.get("reservationId")), ((Number) r.get("quantity")).longValue(),
                    (String) r.get("userId"), (String) r.get("state")));
        }
        java.util.Map<String, Long> buyers = new java.util.HashMap<>();
        for (java.util.Map<String, Object> b : ledger.unitsByBuyer(skuId)) {
            buyers.put((String) b.get("userId"), ((Number) b.get("units")).longValue());
        }
        return new BuyerCounts(rows, buyers);
    }

    static boolean pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
