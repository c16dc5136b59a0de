package io.github.flashstock.inventory.reconciliation.web;

import com.baomidou.mybatisplus.core.metadata.IPage;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.reconciliation.ReconciliationReport;
import io.github.flashstock.inventory.stock.AuditEntry;
import io.github.flashstock.inventory.reconciliation.Repairs;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.support.web.Paging;
import io.github.flashstock.support.web.Paging.Listing;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.security.Principal;
import java.time.Instant;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Reconciliation runs and repairs; under {@code /admin}, so the admin token guards them. */
@RestController
@RequestMapping("/admin/reconciliation")
class ReconciliationController {

    private static final String ID = "[A-Za-z0-9._-]{1,64}";

    private final Reconciler reconciler;
    private final Repairs repairs;

    ReconciliationController(Reconciler reconciler, Repairs repairs) {
        this.reconciler = reconciler;
        this.repairs = repairs;
    }

    /** Runs a reconciliation now: 201 with its report. */
    @PostMapping("/runs")
    ResponseEntity<ReconciliationReport> run() {
        return ResponseEntity.status(HttpStatus.CREATED).body(reconciler.run());
    }

    @GetMapping("/runs/latest")
    ResponseEntity<?> latest() {
        return reconciler.latest().<ResponseEntity<?>>map(ResponseEntity::ok).orElseGet(() ->
                ResponseEntity.status(HttpStatus.NOT_FOUND).body(ProblemDetails.of(HttpStatus.NOT_FOUND, "no-run",
                        "No reconciliation run yet", "no reconciliation has run since the service started")));
    }

    record Release(@NotBlank @Pattern(regexp = ID) String skuId,
                   @NotBlank @Pattern(regexp = StockKeys.XID) String xid,
                   @NotBlank @Pattern(regexp = ID) String reservationId) {
    }

    /**
     * Reloads a SKU's Redis state from MySQL plus its open reservations; audited under the caller
     * ({@link RepairActor}).
     */
    @PostMapping("/skus/{skuId}/reload")
    ResponseEntity<?> reload(@PathVariable @Pattern(regexp = ID) String skuId, Principal caller,
                              @RequestHeader(name = RepairActor.NOTE_HEADER, required = false)
                              @Size(max = RepairActor.NOTE_MAX, message = RepairActor.NOTE_RULE)
                              @Pattern(regexp = RepairActor.NOTE, message = RepairActor.NOTE_RULE) String note,
                              @RequestHeader(name = RepairActor.RETIRED_HEADER, required = false)
                              @Null(message = RepairActor.RETIRED_RULE) String retired) {
        return answer(repairs.reloadSku(skuId, RepairActor.of(caller, note)), "reload-refused");
    }

    /**
     * Releases an overdue reservation whose global transaction the TC no longer knows; audited under the caller
     * ({@link RepairActor}).
     */
    @PostMapping("/reservations/release")
    ResponseEntity<?> release(@Valid @RequestBody Release body, Principal caller,
                              @RequestHeader(name = RepairActor.NOTE_HEADER, required = false)
                              @Size(max = RepairActor.NOTE_MAX, message = RepairActor.NOTE_RULE)
                              @Pattern(regexp = RepairActor.NOTE, message = RepairActor.NOTE_RULE) String note,
                              @RequestHeader(name = RepairActor.RETIRED_HEADER, required = false)
                              @Null(message = RepairActor.RETIRED_RULE) String retired) {
        return answer(repairs.releaseReservation(body.skuId(), body.xid(), body.reservationId(),
                RepairActor.of(caller, note)), "release-refused");
    }

    /**
     * One entry of the audit as it is answered: the table's column names, a field without a value left out (a
     * reload has no {@code xid} nor {@code reservation_key}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AuditView(String action, @JsonProperty("sku_id") String skuId, String xid,
                     @JsonProperty("reservation_key") String reservationKey, String detail, String actor,
                     @JsonProperty("created_at") Instant createdAt) {

        static AuditView of(AuditEntry e) {
            return new AuditView(e.getAction(), e.getSkuId(), e.getXid(), e.getReservationKey(), e.getDetail(),
                    e.getActor(), e.getCreatedAt());
        }
    }

    /** What operators did to the SKU (repairs, creation, restocks, handovers, settings), oldest first, a page at a time ({@link Paging}). */
    @GetMapping("/skus/{skuId}/audit")
    Listing<AuditView> audit(@PathVariable @Pattern(regexp = ID) String skuId,
                              @RequestParam(defaultValue = Paging.DEFAULT_PAGE)
                              @Min(value = 1, message = Paging.PAGE_RULE) int page,
                              @RequestParam(defaultValue = Paging.DEFAULT_SIZE_TEXT)
                              @Min(value = 1, message = Paging.SIZE_RULE)
                              @Max(value = Paging.MAX_SIZE, message = Paging.SIZE_RULE) int size) {
        IPage<AuditEntry> entries = repairs.auditOf(skuId, page, size);
        return new Listing<>(entries.getRecords().stream().map(AuditView::of).toList(), entries.getCurrent(),
                entries.getSize(), entries.getTotal());
    }

    private static ResponseEntity<?> answer(Repairs.Result result, String refusal) {
        if (result.applied()) {
            return ResponseEntity.ok(Map.of("applied", true, "detail", result.detail()));
        }
        ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, refusal, "Repair refused", result.detail());
        return ResponseEntity.status(HttpStatus.CONFLICT).body(p);
    }
}
