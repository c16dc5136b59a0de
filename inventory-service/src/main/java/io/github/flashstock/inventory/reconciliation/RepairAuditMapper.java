package io.github.flashstock.inventory.reconciliation;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.metadata.IPage;
import com.baomidou.mybatisplus.core.toolkit.Wrappers;
import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import org.apache.ibatis.annotations.Mapper;

/** {@code repair_audit}, through {@link BaseMapper} alone: entries are written whole and read page by page. */
@Mapper
interface RepairAuditMapper extends BaseMapper<RepairAuditEntry> {

    default int record(String action, String skuId, String xid, String reservationId, String detail, String actor) {
        RepairAuditEntry entry = new RepairAuditEntry();
        entry.setAction(action);
        entry.setSkuId(skuId);
        entry.setXid(xid);
        entry.setReservationKey(reservationId);
        entry.setDetail(detail);
        entry.setActor(actor);
        return insert(entry);
    }

    /** One page ({@code page} from 1) of the SKU's entries, oldest first. */
    default IPage<RepairAuditEntry> of(String skuId, long page, long size) {
        return selectPage(new Page<>(page, size), Wrappers.<RepairAuditEntry>lambdaQuery()
                .eq(RepairAuditEntry::getSkuId, skuId).orderByAsc(RepairAuditEntry::getId));
    }
}
