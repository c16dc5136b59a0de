package io.github.flashstock.inventory.stock;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.metadata.IPage;
import com.baomidou.mybatisplus.core.toolkit.Wrappers;
import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import org.apache.ibatis.annotations.Mapper;

/**
 * {@code repair_audit}, the record of everything an operator does through {@code /admin}, through {@link BaseMapper}
 * alone: entries are written whole and read page by page. The actor is the admin the bearer token names (Spring
 * Security's principal), never a header.
 */
@Mapper
public interface AuditMapper extends BaseMapper<AuditEntry> {

    /** The actions, as the {@code action} column holds them. */
    String RELOAD_SKU = "RELOAD_SKU";
    String RELEASE_RESERVATION = "RELEASE_RESERVATION";
    String CREATE_SKU = "CREATE_SKU";
    String RESTOCK = "RESTOCK";
    String LIMIT = "LIMIT";
    String HANDOVER = "HANDOVER";
    String SKU_SETTINGS = "SKU_SETTINGS";
    String REBUILD_SKU = "REBUILD_SKU";
    String CLOSE_SKU = "CLOSE_SKU";

    default int record(String action, String skuId, String xid, String reservationId, String detail, String actor) {
        AuditEntry entry = new AuditEntry();
        entry.setAction(action);
        entry.setSkuId(skuId);
        entry.setXid(xid);
        entry.setReservationKey(reservationId);
        entry.setDetail(detail);
        entry.setActor(actor);
        return insert(entry);
    }

    /** One page ({@code page} from 1) of the SKU's entries, oldest first. */
    default IPage<AuditEntry> of(String skuId, long page, long size) {
        return selectPage(new Page<>(page, size), Wrappers.<AuditEntry>lambdaQuery()
                .eq(AuditEntry::getSkuId, skuId).orderByAsc(AuditEntry::getId));
    }
}
