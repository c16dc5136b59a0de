package io.github.flashstock.inventory.stock;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import java.time.Instant;

/**
 * One {@code repair_audit} row, the record of what an operator did: which action ({@link AuditMapper}'s actions: a
 * repair, a SKU created or restocked, units handed over, settings published) on which SKU or reservation, what it
 * found and did, who asked (the admin the bearer token names). A JavaBean rather than a record: MyBatis-Plus writes the generated
 * {@code id} back through a setter, and its lambda conditions read getters.
 */
@TableName("repair_audit")
public class AuditEntry {

    @TableId(type = IdType.AUTO)
    private Long id;
    private String action;
    private String skuId;
    private String xid;
    private String reservationKey;
    private String detail;
    private String actor;
    private Instant createdAt;

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getAction() {
        return action;
    }

    public void setAction(String action) {
        this.action = action;
    }

    public String getSkuId() {
        return skuId;
    }

    public void setSkuId(String skuId) {
        this.skuId = skuId;
    }

    public String getXid() {
        return xid;
    }

    public void setXid(String xid) {
        this.xid = xid;
    }

    /** The reservation a RELEASE_RESERVATION released (the caller's reservation id); null for a reload. */
    public String getReservationKey() {
        return reservationKey;
    }

    public void setReservationKey(String reservationKey) {
        this.reservationKey = reservationKey;
    }

    public String getDetail() {
        return detail;
    }

    public void setDetail(String detail) {
        this.detail = detail;
    }

    /** The admin who asked ({@code RepairActor}). */
    public String getActor() {
        return actor;
    }

    public void setActor(String actor) {
        this.actor = actor;
    }

    /** Set by the database when the row is written. */
    public Instant getCreatedAt() {
        return createdAt;
    }

    public void setCreatedAt(Instant createdAt) {
        this.createdAt = createdAt;
    }
}
