package io.github.flashstock.inventory.rebuild;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.HandoverScript;
import io.github.flashstock.inventory.allotment.StockHandoverMapper;
import io.github.flashstock.inventory.stock.HandoverMarks;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every rebuild of a SKU's Redis state from MySQL (load, reload, rebuild after lost writes) goes through here, so that none of them
 * can count a unit a handover is moving twice. Under the SKU's rebuild lock (which {@code handover.lua} refuses to
 * work under), it reads MySQL's row and the SKU's pending handovers in one snapshot, and hands the script what
 * Redis's share is and which handovers to mark applied in the same call.
 */
@Component
public class RedisRebuilds {

    /**
     * What a rebuild writes, from one MySQL snapshot.
     *
     * @param row        the SKU's row; null when MySQL does not know the SKU
     * @param stocked    {@code stocked} as the scripts take it (MySQL's less the allotment's sales)
     * @param sold       units Redis sold
     * @param notRedis   units MySQL holds apart from sales (the MySQL store's reservations, the allotment, units on
     *                   their way to it), less what handovers under way will give back to Redis
     * @param handovers  the pending handovers, with the units the counters account for
     */
    public record Basis(SkuStockRow row, long stocked, long sold, long notRedis, HandoverMarks handovers,
                        boolean closed) {

        /** Units Redis may sell once its open reservations settle: {@code stocked - sold - notRedis}. */
        public long available() {
            return stocked - sold - notRedis;
        }

        public int limit() {
            return row.perUserLimit() == null ? 0 : row.perUserLimit();
        }
    }

    private final ReloadScript locks;
    private final SkuStockMapper skus;
    private final StockHandoverMapper handovers;
    private final HandoverScript handoverScript;
    private final TransactionTemplate snapshot;
    private final InventorySettings settings;

    RedisRebuilds(ReloadScript locks, SkuStockMapper skus, StockHandoverMapper handovers,
                  HandoverScript handoverScript, PlatformTransactionManager transactions, InventorySettings settings) {
        this.locks = locks;
        this.skus = skus;
        this.handovers = handovers;
        this.handoverScript = handoverScript;
        this.settings = settings;
        this.snapshot = new TransactionTemplate(transactions);
        snapshot.setReadOnly(true);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
    }

    /**
     * Runs {@code script} with MySQL's basis under the SKU's rebuild lock.
     *
     * @return empty when another rebuild of the SKU holds the lock; the script's result otherwise (the script gets
     * a basis whose row is null when MySQL does not know the SKU)
     */
    public <T> Optional<T> rebuild(String skuId, Duration lockFor, Function<Basis, T> script) {
        return locks.holdingLock(skuId, lockFor, () -> script.apply(basis(skuId)));
    }

    /** MySQL's row and the pending handovers, read in one snapshot; Redis's marks of those handovers. */
    Basis basis(String skuId) {
        record Read(SkuStockRow row, List<HandoverRow> pending, boolean closed) {
        }
        Read read = snapshot.execute(status -> new Read(skus.find(skuId), handovers.pendingOf(skuId),
                skus.closedAt(skuId) != null));
        SkuStockRow row = read.row();
        if (row == null) {
            return new Basis(null, 0, 0, 0, HandoverMarks.NONE, false);
        }
        Map<String, Long> marks = new LinkedHashMap<>();
        long givenBack = 0;
        for (HandoverRow h : read.pending()) {
            OptionalLong moved = handoverScript.moved(skuId, h.operationId());
            if (h.toMysql() && moved.isPresent()) {
                // Redis gave up fewer than MySQL expects: the rest comes back to Redis's share when it completes
                givenBack += h.units() - moved.getAsLong();
            }
            marks.put(h.operationId(), moved.orElse(h.units()));
        }
        long notRedis = row.reserved() + row.allotmentAvailable() + row.allotmentIncoming() - givenBack;
        return new Basis(row, row.stocked() - row.allotmentSold(), row.redisSold(), notRedis,
                new HandoverMarks(marks, settings.fenceRetention()), read.closed());
    }
}
