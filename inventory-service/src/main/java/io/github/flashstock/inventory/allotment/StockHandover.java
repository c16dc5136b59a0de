package io.github.flashstock.inventory.allotment;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.stock.RebuildNeeded;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves units between a SKU's Redis store and its allotment: the only way they move (docs/design.md, "When Redis
 * is down"). One operation per id, recorded in {@code stock_handover} (idempotent, audited), in three steps, MySQL
 * first so that MySQL never counts a unit as the allotment's while Redis may still sell it:
 * <ol>
 *     <li>MySQL, one transaction: the PENDING row, and {@code allotment_incoming += units} (to MySQL) or
 *     {@code allotment_available -= units} (to Redis);</li>
 *     <li>Redis, {@code handover.lua}: gives up at most {@code units} available units, or takes {@code units};
 *     remembered under the operation id;</li>
 *     <li>MySQL, one transaction: the row DONE with the units moved; to MySQL, {@code allotment_incoming -= units}
 *     and {@code allotment_available += moved}.</li>
 * </ol>
 * Every step is safe to repeat, so an operation cut short anywhere is completed by repeating it: a replay of the
 * request, or {@link #completeCutShort()} for the ones nobody replays. A rebuild of the SKU's Redis state settles
 * the pending ones itself (see {@link RedisRebuilds}).
 */
@Service
public class StockHandover {

    private static final Logger log = LoggerFactory.getLogger(StockHandover.class);

    /** Which way units go. */
    public enum Direction { TO_MYSQL, TO_REDIS }

    /** What a handover request came to. */
    public sealed interface Result {
        /** Finished (now or before): {@code row.moved()} units moved. */
        record Done(HandoverRow row) implements Result {
        }

        /** MySQL's step is done, Redis's is not (unreachable, being rebuilt, stale): it completes later. */
        record Pending(HandoverRow row, String why) implements Result {
        }

        /** Nothing moved: the store giving the units does not have them (as MySQL counts them). */
        record Refused(String why) implements Result {
        }

        /** The operation id was used for another handover (another SKU, direction or count). */
        record Conflict(HandoverRow existing) implements Result {
        }

        record UnknownSku() implements Result {
        }
    }

    private final StockHandoverMapper handovers;
    private final SkuStockMapper skus;
    private final HandoverScript redis;
    private final TransactionTemplate tx;
    private final InventorySettings settings;
    private final MeterRegistry meters;
    private final Duration completeAfter;
    /** How long a mark of units moving into Redis counts, at most (a handover cut short keeps its mark that long). */
    private final Duration movingMark;
    private final ApplicationEventPublisher events;
    private final AllotmentLevels levels;

    StockHandover(StockHandoverMapper handovers, SkuStockMapper skus, HandoverScript redis, TransactionTemplate tx,
                  InventorySettings settings, MeterRegistry meters,
                  ApplicationEventPublisher events, AllotmentLevels levels,
                  @Value("${inventory.handover.complete-after:10s}") Duration completeAfter,
                  @Value("${inventory.handover.moving-mark:5s}") Duration movingMark) {
        this.movingMark = movingMark;
        this.events = events;
        this.levels = levels;
        this.completeAfter = completeAfter;
        this.handovers = handovers;
        this.skus = skus;
        this.redis = redis;
        this.tx = tx;
        this.settings = settings;
        this.meters = meters;
    }

    /**
     * Moves up to {@code units} (to MySQL: as many as Redis has available, up to that; to Redis: exactly that many)
     * under {@code operationId}; a replay with the same id completes or reports the same operation.
     */
    public Result handOver(String skuId, Direction direction, long units, String operationId, String reason) {
        if (units <= 0) {
            throw new IllegalArgumentException("units to hand over must be positive, was " + units);
        }
        if (skus.find(skuId) == null) {
            return new Result.UnknownSku();
        }
        if (direction == Direction.TO_MYSQL) {
            return begin(skuId, direction, units, operationId, reason);
        }
        // to Redis: the units are in neither store between the MySQL step and the Redis step; a mark in Redis says
        // they are on their way, so a Try refused for them meanwhile is answered "not now" (lua/moving.lua)
        markMovingIn(skuId, operationId, units);
        Result result = null;
        try {
            result = begin(skuId, direction, units, operationId, reason);
            return result;
        } finally {
            if (!(result instanceof Result.Pending)) {
                unmarkMovingIn(skuId, operationId);
            }
        }
    }

    private void markMovingIn(String skuId, String operationId, long units) {
        try {
            redis.markMovingIn(skuId, operationId, units, movingMark);
        } catch (RuntimeException e) {
            log.warn("handover {} of SKU {}: the units could not be marked as moving into Redis ({}); a Try refused"
                    + " for want of them until they arrive says they are gone", operationId, skuId, e.toString());
        }
    }

    private void unmarkMovingIn(String skuId, String operationId) {
        try {
            redis.unmarkMovingIn(skuId, operationId);
        } catch (RuntimeException e) {
            log.warn("handover {} of SKU {}: its mark of units moving into Redis stays until its deadline ({})",
                    operationId, skuId, e.toString());
        }
    }

    private Result begin(String skuId, Direction direction, long units, String operationId, String reason) {
        Result begun = tx.execute(status -> {
            if (handovers.begin(operationId, skuId, direction.name(), units, reason) == 0) {
                return null; // the id is taken: a replay, looked at below
            }
            boolean possible = direction == Direction.TO_MYSQL ? handovers.expect(skuId, units) == 1
                    : handovers.release(skuId, units) == 1;
            if (!possible) {
                status.setRollbackOnly();
                SkuStockRow now = skus.find(skuId);
                return new Result.Refused(direction == Direction.TO_MYSQL
                        ? "Redis has " + now.redisAvailable() + " unit(s) available as MySQL counts them, fewer than "
                        + units
                        : "the MySQL store's allotment has " + now.allotmentAvailable() + " unit(s) available, fewer than " + units);
            }
            return null;
        });
        if (begun != null) {
            meters.counter("inventory.handovers", "direction", tag(direction), "result", "refused").increment();
            return begun;
        }
        HandoverRow existing = handovers.find(operationId);
        if (!existing.skuId().equals(skuId) || !existing.direction().equals(direction.name())
                || existing.units() != units) {
            return new Result.Conflict(existing);
        }
        return complete(existing);
    }

    /** Drives one operation to DONE from wherever it stopped; a DONE one is reported as it is. */
    public Result complete(HandoverRow row) {
        if (!row.pending()) {
            return new Result.Done(row);
        }
        HandoverScript.Outcome outcome;
        try {
            outcome = redis.run(row.skuId(), row.toMysql() ? HandoverScript.Direction.OUT : HandoverScript.Direction.IN,
                    row.units(), row.operationId(), settings.fenceRetention());
        } catch (RuntimeException e) {
            log.warn("handover {} of SKU {}: Redis step failed, completes later: {}", row.operationId(), row.skuId(),
                    e.toString());
            return new Result.Pending(row, "Redis did not answer: " + e.getMessage());
        }
        if (!(outcome instanceof HandoverScript.Outcome.Moved moved)) {
            if (outcome instanceof HandoverScript.Outcome.StaleSku
                    || outcome instanceof HandoverScript.Outcome.UnknownSku && skus.find(row.skuId()) != null) {
                events.publishEvent(new RebuildNeeded(row.skuId())); // the rebuild settles this handover
            }
            String why = outcome instanceof HandoverScript.Outcome.UnknownSku ? "Redis does not have the SKU"
                    : outcome instanceof HandoverScript.Outcome.StaleSku
                    ? "the SKU is waiting to be rebuilt after a Redis restart or failover"
                    : "a rebuild of the SKU is running";
            return new Result.Pending(row, why);
        }
        return new Result.Done(finish(row, moved.moved()));
    }

    /** The last step; a second call finds the row DONE and changes nothing. */
    HandoverRow finish(HandoverRow row, long moved) {
        tx.executeWithoutResult(status -> {
            if (handovers.finish(row.operationId(), moved) == 1) {
                if (row.toMysql()) {
                    handovers.receive(row.skuId(), row.units(), moved);
                }
                Direction direction = row.toMysql() ? Direction.TO_MYSQL : Direction.TO_REDIS;
                meters.counter("inventory.handovers", "direction", tag(direction), "result", "done").increment();
                meters.counter("inventory.handover.units", "direction", tag(direction)).increment(moved);
                log.info("handover {} of SKU {}: {} of {} unit(s) moved {} ({})", row.operationId(), row.skuId(),
                        moved, row.units(), direction, row.reason());
            }
        });
        SkuStockRow now = skus.find(row.skuId());
        if (now != null) {
            levels.saw(row.skuId(), now.allotmentAvailable());
        }
        return handovers.find(row.operationId());
    }

    /** Drives every pending handover of the SKU as far as it goes now. */
    public List<Result> completeAll(String skuId) {
        return handovers.pendingOf(skuId).stream().map(this::complete).toList();
    }

    /** The SKU's handovers still under way or cut short. */
    public List<HandoverRow> pending(String skuId) {
        return handovers.pendingOf(skuId);
    }

    /** One page of the handovers still PENDING, every SKU's, oldest first. */
    public IPage<HandoverRow> pending(long page, long size) {
        return handovers.pending(page, size);
    }

    /** One page ({@code page} from 1) of the SKU's handovers, newest first: the audit trail. */
    public IPage<HandoverRow> history(String skuId, long page, long size) {
        return handovers.newestOf(skuId, page, size);
    }

    /**
     * Completes operations cut short (the process died between steps, or Redis was away), once they are older
     * than the interval: a running request is left to finish its own.
     */
    @Scheduled(initialDelayString = "${inventory.handover.complete-after:10s}",
            fixedDelayString = "${inventory.handover.complete-after:10s}")
    public void completeCutShort() {
        try {
            for (HandoverRow row : handovers.pendingSince(completeAfter.toSeconds())) {
                if (complete(row) instanceof Result.Pending p) {
                    log.debug("handover {} still pending: {}", row.operationId(), p.why());
                }
            }
        } catch (RuntimeException e) {
            log.warn("completing cut-short handovers failed, will try again: {}", e.toString());
        }
    }

    private static String tag(Direction direction) {
        return direction.name().toLowerCase(Locale.ROOT);
    }
}
