package io.github.flashstock.inventory.catalog;

import io.github.flashstock.inventory.allotment.StockHandoverMapper;
import io.github.flashstock.inventory.stock.SaleEndScript;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * The end of a SKU's sale (docs/design.md, "The end of a sale"). {@link #close} closes it for good: MySQL's row
 * first (the MySQL store takes nothing of it from then on), then Redis's stock hash ({@code lua/close.lua}: Tries
 * refused there too). The reservations still open end as their transactions decide. Once nothing of the sale is left
 * to end, {@link #sweep} removes every key of the SKU from Redis ({@code lua/sweep.lua}: segments, buyer counts,
 * fence records, stream, marks), so that a sale leaves nothing behind in Redis's memory; MySQL keeps the record. A
 * sweep that finds the sale not over yet is tried again every {@code inventory.sale-end.sweep-interval} (30 s).
 */
@Service
public class SaleEnd {

    private static final Logger log = LoggerFactory.getLogger(SaleEnd.class);

    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    private final StockHandoverMapper handovers;
    private final SaleEndScript redis;
    private final MeterRegistry meters;
    private final int perRound;

    SaleEnd(SkuStockMapper skus, StockLedgerMapper ledger, StockHandoverMapper handovers, SaleEndScript redis,
            MeterRegistry meters, @Value("${inventory.sale-end.sweeps-per-round:100}") int perRound) {
        this.skus = skus;
        this.ledger = ledger;
        this.handovers = handovers;
        this.redis = redis;
        this.meters = meters;
        this.perRound = perRound;
    }

    /**
     * Where a closed sale stands: when it was closed, what Redis still holds open of it (units reserved, reservations
     * open; 0 when Redis had no stock hash), and whether Redis has let go of its keys (when, and how many this call
     * removed).
     */
    public record Closing(String skuId, Instant closedAt, long reservedInRedis, long openInRedis, Instant sweptAt,
                          long keysRemoved) {
    }

    /**
     * Closes the SKU's sale, then sweeps it if nothing is left to end. Safe to repeat: a second call finds it closed
     * and tries the sweep again. Redis out of reach fails the call after MySQL's step ({@code RedisUnreachable}):
     * the MySQL store refuses the SKU already, and the same request again completes Redis's.
     *
     * @return empty for an unknown SKU
     */
    public Optional<Closing> close(String skuId) {
        if (skus.close(skuId) == 0) {
            return Optional.empty();
        }
        Instant swept = skus.sweptAt(skuId);
        if (swept != null) {
            return Optional.of(new Closing(skuId, skus.closedAt(skuId), 0, 0, swept, 0));
        }
        SaleEndScript.Closed closed = redis.close(skuId);
        long removed = sweep(skuId);
        meters.counter("inventory.sales.closed").increment();
        return Optional.of(new Closing(skuId, skus.closedAt(skuId), closed.reserved(), closed.open(),
                skus.sweptAt(skuId), removed));
    }

    /**
     * Removes the closed SKU's keys from Redis when nothing of its sale is left to end: no open reservation in the
     * ledger, no row of the MySQL store that Redis has still to reflect, no handover under way, nothing the MySQL store
     * holds reserved; Redis checks its own side in the same script (nothing reserved or open, no unsent event, no
     * rebuild). Records the sweep in MySQL.
     *
     * @return the keys removed
     */
    public long sweep(String skuId) {
        if (ledger.unsettledOf(skuId) > 0 || !handovers.pendingOf(skuId).isEmpty()) {
            return 0;
        }
        var row = skus.find(skuId);
        if (row == null || row.reserved() > 0 || skus.closedAt(skuId) == null) {
            return 0;
        }
        SaleEndScript.Swept swept = redis.sweep(skuId);
        if (!swept.done()) {
            log.debug("SKU {} is closed; its sweep waits: {}", skuId, swept.code());
            return swept.removed();
        }
        if (skus.swept(skuId) == 1) {
            log.info("SKU {}: its sale is closed and over; Redis let go of its keys ({} removed)", skuId,
                    swept.removed());
            meters.counter("inventory.sales.swept").increment();
        }
        return swept.removed();
    }

    /** Sweeps the closed SKUs Redis still holds, oldest closing first, {@code sweeps-per-round} at a time. */
    @Scheduled(initialDelayString = "${inventory.sale-end.sweep-interval:30s}",
            fixedDelayString = "${inventory.sale-end.sweep-interval:30s}")
    void sweepClosed() {
        for (String skuId : skus.closedUnswept(perRound)) {
            try {
                redis.close(skuId); // a close cut short before Redis's step (Redis away) is completed here
                sweep(skuId);
            } catch (RuntimeException e) {
                log.warn("sweep of closed SKU {} failed; tried again next round: {}", skuId, e.toString());
            }
        }
    }
}
