package io.github.flashstock.inventory.reconciliation;

import io.github.flashstock.inventory.stock.AuditEntry;
import io.github.flashstock.inventory.stock.AuditMapper;
import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.reservation.CancelScript;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.SalesRecord;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Explicit repairs of what a reconciliation reported; each one writes an audit entry. Nothing repairs silently. */
@Service
public class Repairs {

    private final StockCatalog catalog;
    private final CancelScript cancel;
    private final SalesRecord sales;
    private final SeataTransactions transactions;
    private final AuditMapper audit;
    private final InventorySettings settings;
    private final RedisStockReader reader;

    Repairs(StockCatalog catalog, CancelScript cancel, SalesRecord sales, SeataTransactions transactions,
            AuditMapper audit, InventorySettings settings, RedisStockReader reader) {
        this.reader = reader;
        this.catalog = catalog;
        this.cancel = cancel;
        this.sales = sales;
        this.transactions = transactions;
        this.audit = audit;
        this.settings = settings;
    }

    /** What a repair did, or why it did nothing. */
    public record Result(boolean applied, String detail) {
    }

    /** Rebuilds the SKU's Redis state from MySQL plus its open reservations. */
    public Result reloadSku(String skuId, String actor) {
        StockCatalog.Rebuild rebuild = catalog.rebuild(skuId);
        boolean applied = rebuild instanceof StockCatalog.Rebuild.Done done
                && done.outcome() instanceof io.github.flashstock.inventory.rebuild.ReloadOutcome.Reloaded;
        String detail = rebuild.toString();
        if (applied) {
            audit.record(AuditMapper.RELOAD_SKU, skuId, null, null, detail, actor);
        }
        return new Result(applied, detail);
    }

    /**
     * Releases a reservation still TRIED in Redis whose global transaction the TC no longer knows (finished, or
     * never existed): the cancel script gives its units back, the ledger row is marked CANCELLED. Refused while
     * the TC still holds the transaction: Seata will end it.
     */
    public Result releaseReservation(String skuId, String xid, String reservationId, String actor) {
        Optional<String> state = reader.fenceState(skuId, xid, reservationId);
        if (!state.filter("TRIED"::equals).isPresent()) {
            // checked before anything is written: a made-up reservation must leave Redis as it was
            return new Result(false, "nothing open to release: " + state.map(s -> "the reservation is " + s)
                    .orElse("no such reservation in Redis"));
        }
        String status = transactions.status(xid);
        if (!"NOT_FOUND".equals(status)) {
            return new Result(false, "the TC reports " + status + " for " + xid + ": left to Seata");
        }
        PhaseOutcome outcome = cancel.run(skuId, xid, reservationId, settings.fenceRetention());
        if (!(outcome instanceof PhaseOutcome.Applied applied)) {
            return new Result(false, "nothing open to release: " + outcome);
        }
        sales.cancelled(xid, reservationId, 0, skuId, applied.quantity());
        String detail = "released " + applied.quantity() + " unit(s); TC: " + status;
        audit.record(AuditMapper.RELEASE_RESERVATION, skuId, xid, reservationId, detail, actor);
        return new Result(true, detail);
    }

    /** One page ({@code page} from 1) of the repairs run on the SKU, oldest first. */
    public IPage<AuditEntry> auditOf(String skuId, long page, long size) {
        return audit.of(skuId, page, size);
    }
}
