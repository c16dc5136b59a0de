package io.github.flashstock.inventory.catalog.web;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.catalog.SaleEnd;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.rebuild.ReloadOutcome;
import io.github.flashstock.inventory.stock.AuditMapper;
import io.github.flashstock.inventory.stock.SegmentCounts;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.web.Problems;
import io.github.flashstock.support.web.Paging.Listing;
import io.github.flashstock.support.web.Paging;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Operator actions; every path under {@code /admin} needs the configured bearer token. */
@RestController
@RequestMapping("/admin/skus")
public class AdminController {

    public static final String SKU_ID = "[A-Za-z0-9._-]{1,64}";
    static final String PREFIX_RULE = "prefix: 1 to 64 of the characters A-Z a-z 0-9 . _ -";

    private final StockCatalog catalog;
    private final SaleEnd saleEnd;
    private final SegmentCounts segmentCounts;
    /** Every change made here is recorded with the admin who made it. */
    private final AuditMapper audit;

    AdminController(StockCatalog catalog, SaleEnd saleEnd, SegmentCounts segmentCounts, AuditMapper audit) {
        this.catalog = catalog;
        this.saleEnd = saleEnd;
        this.segmentCounts = segmentCounts;
        this.audit = audit;
    }

    record CreateSku(@NotNull @PositiveOrZero Long stocked, @Positive Integer perUserLimit,
                     @Min(1) @Max(SegmentCounts.MAX) Integer segments) {
    }

    record Restock(@NotNull @Positive @Max(1_000_000_000) Long quantity) {
    }

    /** A SKU as the listing shows it: MySQL's counts (the stock view has both stores'). */
    record SkuSummary(String skuId, long stocked, long available, long reserved, long sold) {
    }

    /**
     * The SKUs MySQL knows, by id, a page at a time ({@link Paging}): the items with {@code page}, {@code size},
     * {@code total}; with {@code prefix}, only the SKUs whose id starts with it.
     */
    @GetMapping
    Listing<SkuSummary> list(@RequestParam(required = false) @Pattern(regexp = SKU_ID, message = PREFIX_RULE)
                             String prefix,
                             @RequestParam(defaultValue = Paging.DEFAULT_PAGE)
                             @Min(value = 1, message = Paging.PAGE_RULE) int page,
                             @RequestParam(defaultValue = Paging.DEFAULT_SIZE_TEXT)
                             @Min(value = 1, message = Paging.SIZE_RULE)
                             @Max(value = Paging.MAX_SIZE, message = Paging.SIZE_RULE) int size) {
        IPage<SkuStockRow> rows = catalog.page(prefix, page, size);
        return new Listing<>(rows.getRecords().stream().map(r -> new SkuSummary(r.skuId(), r.stocked(), r.available(),
                r.reserved(), r.sold())).toList(), rows.getCurrent(), rows.getSize(), rows.getTotal());
    }

    /** Creates a SKU in MySQL and Redis: 201, or 409 {@code sku-exists} (nothing overwritten). */
    @PutMapping("/{skuId}")
    ResponseEntity<?> create(@PathVariable @Pattern(regexp = SKU_ID) String skuId, @Valid @RequestBody CreateSku body,
                             Principal admin) {
        int segments = body.segments() == null ? segmentCounts.countFor(skuId) : body.segments();
        return switch (catalog.create(skuId, body.stocked(), body.perUserLimit(), segments)) {
            case CREATED -> {
                audit.record(AuditMapper.CREATE_SKU, skuId, null, null, "created with " + body.stocked()
                        + " unit(s), per-user limit " + body.perUserLimit() + ", " + segments + " segment(s)",
                        admin.getName());
                yield ResponseEntity.status(HttpStatus.CREATED).body(Map.of("skuId", skuId, "stocked",
                        body.stocked(), "segments", segments));
            }
            case ALREADY_EXISTS -> {
                ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "sku-exists", "SKU exists",
                        "SKU " + skuId + " exists; restock it instead");
                p.setProperty("skuId", skuId);
                yield ResponseEntity.status(HttpStatus.CONFLICT).body(p);
            }
        };
    }

    /**
     * Rebuilds the SKU's Redis state from MySQL plus the reservations open in Redis. 200 with the new state;
     * 409 {@code reload-in-progress} while another rebuild of the SKU runs; 409 {@code open-exceeds-stock} when
     * the open reservations hold more than MySQL has available (nothing changed); 404 for an unknown SKU.
     */
    @PostMapping("/{skuId}/reload")
    ResponseEntity<?> reload(@PathVariable @Pattern(regexp = SKU_ID) String skuId, Principal admin) {
        StockCatalog.Rebuild rebuild = catalog.rebuild(skuId);
        if (rebuild instanceof StockCatalog.Rebuild.Done done
                && done.outcome() instanceof ReloadOutcome.Reloaded r) {
            audit.record(AuditMapper.REBUILD_SKU, skuId, null, null, "rebuilt in Redis from MySQL: available "
                    + r.available() + ", reserved " + r.reserved() + ", sold " + r.sold() + ", "
                    + r.openReservations() + " open reservation(s)", admin.getName());
            return ResponseEntity.ok(Map.of("skuId", skuId, "available", r.available(), "reserved", r.reserved(), "sold", r.sold(),
                    "openReservations", r.openReservations()));
        }
        if (rebuild instanceof StockCatalog.Rebuild.Done done
                && done.outcome() instanceof ReloadOutcome.OpenExceedsStock o) {
            ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "open-exceeds-stock", "Open reservations exceed stock",
                    "open reservations hold " + o.reserved() + " units, MySQL has " + o.available() + " available");
            p.setProperty("skuId", skuId);
            p.setProperty("reserved", o.reserved());
            p.setProperty("available", o.available());
            return ResponseEntity.status(HttpStatus.CONFLICT).body(p);
        }
        if (rebuild instanceof StockCatalog.Rebuild.InProgress) {
            ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "reload-in-progress", "Reload in progress",
                    "another rebuild of " + skuId + " is running");
            p.setProperty("skuId", skuId);
            return ResponseEntity.status(HttpStatus.CONFLICT).body(p);
        }
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId));
    }

    /** An operation id as both stores keep it (MySQL's {@code restock_operation.operation_id}, a Redis key part). */
    public static final String OPERATION_ID = "[A-Za-z0-9._:-]{1,128}";

    /** Adds units; an {@code Idempotency-Key} header makes a retried request add them once. */
    @PostMapping("/{skuId}/restock")
    ResponseEntity<?> restock(@PathVariable @Pattern(regexp = SKU_ID) String skuId,
                              @RequestHeader(name = "Idempotency-Key", required = false)
                              @Pattern(regexp = OPERATION_ID) String key,
                              @Valid @RequestBody Restock body, Principal admin) {
        String operation = key == null ? UUID.randomUUID().toString() : key;
        StockCatalog.SaleState sale = catalog.saleState(skuId);
        if (sale == StockCatalog.SaleState.CLOSED || sale == StockCatalog.SaleState.SWEPT) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body(Problems.saleClosed(skuId));
        }
        return catalog.restock(skuId, body.quantity(), operation)
                .<ResponseEntity<?>>map(s -> {
                    audit.record(AuditMapper.RESTOCK, skuId, null, operation, "restock of " + body.quantity()
                            + " unit(s) under operation " + operation + " (a replay adds nothing): stocked "
                            + s.stocked(), admin.getName());
                    return ResponseEntity.ok(Map.of("skuId", skuId, "stocked", s.stocked(), "available",
                            s.available()));
                })
                .orElseGet(() -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId)));
    }
    /**
     * Closes the SKU's sale for good ({@link SaleEnd#close}): no Try takes a unit of it any more, in either store;
     * the reservations still open end as their transactions decide; once nothing is left to end, Redis lets go of
     * every key of it (at once, or by the sweep that runs every {@code inventory.sale-end.sweep-interval}). 200 with
     * where it stands ({@code closedAt}, what Redis still holds open, {@code sweptAt} once swept); a repeat changes
     * nothing and sweeps if it can; 404 for an unknown SKU.
     */
    @PostMapping("/{skuId}/close")
    ResponseEntity<?> close(@PathVariable @Pattern(regexp = SKU_ID) String skuId, Principal admin) {
        return saleEnd.close(skuId).<ResponseEntity<?>>map(c -> {
            audit.record(AuditMapper.CLOSE_SKU, skuId, null, null, "sale closed; Redis held " + c.reservedInRedis()
                    + " unit(s) reserved in " + c.openInRedis() + " open reservation(s); "
                    + (c.sweptAt() == null ? "its keys stay until the sale is over" : "its keys are swept ("
                    + c.keysRemoved() + " removed now)"), admin.getName());
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("skuId", skuId);
            answer.put("closedAt", c.closedAt().toString());
            answer.put("reservedInRedis", c.reservedInRedis());
            answer.put("openInRedis", c.openInRedis());
            answer.put("sweptAt", c.sweptAt() == null ? null : c.sweptAt().toString());
            answer.put("keysRemoved", c.keysRemoved());
            return ResponseEntity.ok(answer);
        }).orElseGet(() -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId)));
    }

    /**
     * Changes the SKU's per-user limit, live ({@link StockCatalog#changeLimit}): {@code {"perUserLimit": 3}}, or
     * {@code null} for none. A repeat of the same change changes nothing.
     */
    @PutMapping("/{skuId}/limit")
    ResponseEntity<?> limit(@PathVariable @Pattern(regexp = SKU_ID) String skuId, @RequestBody JsonNode body,
                            Principal admin) {
        JsonNode value = body == null ? null : body.get("perUserLimit");
        if (value == null || !(value.isNull() || value.isIntegralNumber() && value.canConvertToInt()
                && value.asInt() > 0) || body.size() != 1) {
            return ResponseEntity.badRequest().body(ProblemDetails.of(HttpStatus.BAD_REQUEST, "invalid-request",
                    "Invalid request", "the body is {\"perUserLimit\": n} with n a positive whole number of units,"
                            + " or null for no limit"));
        }
        Integer limit = value.isNull() ? null : value.asInt();
        return switch (catalog.changeLimit(skuId, limit)) {
            case UNKNOWN_SKU -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId));
            case REBUILDING -> ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1")
                    .body(ProblemDetails.of(HttpStatus.SERVICE_UNAVAILABLE, "sku-rebuilding", "SKU being rebuilt",
                            "MySQL has the new limit; Redis is rebuilding SKU " + skuId + ": send the same request"
                                    + " again to finish"));
            case CHANGED -> {
                audit.record(AuditMapper.LIMIT, skuId, null, null, "per-user limit set to "
                        + (limit == null ? "none" : limit), admin.getName());
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("skuId", skuId);
                answer.put("perUserLimit", limit);
                yield ResponseEntity.ok(answer);
            }
        };
    }
}
