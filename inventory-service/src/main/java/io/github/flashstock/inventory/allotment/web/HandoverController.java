package io.github.flashstock.inventory.allotment.web;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.catalog.web.AdminController;
import io.github.flashstock.inventory.stock.web.Problems;
import io.github.flashstock.support.web.Paging;
import io.github.flashstock.support.web.Paging.Listing;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import io.github.flashstock.inventory.stock.AuditMapper;
import java.security.Principal;
import java.util.UUID;
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

/**
 * Moving units between a SKU's Redis store and its allotment by hand, and the record of every move; under
 * {@code /admin}, so behind the bearer token.
 */
@RestController
@RequestMapping("/admin/skus")
class HandoverController {

    private final StockHandover handover;
    private final AuditMapper audit;

    HandoverController(StockHandover handover, AuditMapper audit) {
        this.handover = handover;
        this.audit = audit;
    }

    /**
     * The body. {@code direction} is read as text and must be one of the two names exactly: Jackson would otherwise
     * take an enum's position ({@code 1}) or a name with spaces around it for a direction.
     */
    record HandoverRequest(@NotNull @Pattern(regexp = "TO_MYSQL|TO_REDIS", message = "must be TO_MYSQL or TO_REDIS")
                           String direction, @NotNull @Positive @Max(1_000_000_000) Long units) {

        StockHandover.Direction toDirection() {
            return StockHandover.Direction.valueOf(direction);
        }
    }

    /**
     * Moves units: 200 with the operation when it is done (now or by an earlier request with the same
     * {@code Idempotency-Key}); 202 when MySQL's step is done and Redis's is not (it completes on its own); 409
     * {@code handover-refused} when the giving store lacks the units (nothing moved) or {@code operation-id-taken}
     * when the key names another handover; 404 for an unknown SKU.
     */
    @PostMapping("/{skuId}/handovers")
    ResponseEntity<?> handOver(@PathVariable @Pattern(regexp = AdminController.SKU_ID) String skuId,
                               @RequestHeader(name = "Idempotency-Key", required = false)
                               @Pattern(regexp = AdminController.OPERATION_ID) String key,
                               @Valid @RequestBody HandoverRequest body, Principal admin) {
        String operation = key == null ? UUID.randomUUID().toString() : key;
        StockHandover.Result result = handover.handOver(skuId, body.toDirection(), body.units(), operation,
                "operator " + admin.getName());
        if (result instanceof StockHandover.Result.Done || result instanceof StockHandover.Result.Pending) {
            audit.record(AuditMapper.HANDOVER, skuId, null, operation, body.direction() + " of " + body.units()
                    + " unit(s) under operation " + operation + (result instanceof StockHandover.Result.Pending
                    ? " (MySQL's step done, Redis's under way)" : ""), admin.getName());
        }
        if (result instanceof StockHandover.Result.Done done) {
            return ResponseEntity.ok(done.row());
        }
        if (result instanceof StockHandover.Result.Pending pending) {
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(pending.row());
        }
        if (result instanceof StockHandover.Result.Refused refused) {
            ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "handover-refused", "Handover refused",
                    refused.why() + "; nothing moved");
            p.setProperty("skuId", skuId);
            return ResponseEntity.status(HttpStatus.CONFLICT).body(p);
        }
        if (result instanceof StockHandover.Result.Conflict conflict) {
            ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "operation-id-taken", "Operation id taken",
                    "Idempotency-Key " + operation + " names another handover (" + conflict.existing().direction()
                            + " of " + conflict.existing().units() + " unit(s) of " + conflict.existing().skuId()
                            + "); nothing moved");
            return ResponseEntity.status(HttpStatus.CONFLICT).body(p);
        }
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId));
    }

    /**
     * The SKU's handovers, newest first, a page at a time ({@link Paging}): the items with {@code page}, {@code size}
     * and {@code total}. {@code limit} is refused (400) rather than ignored: it asked for the last N, which is
     * {@code size} now.
     */
    @GetMapping("/{skuId}/handovers")
    Listing<HandoverRow> history(@PathVariable @Pattern(regexp = AdminController.SKU_ID) String skuId,
                                 @RequestParam(defaultValue = Paging.DEFAULT_PAGE)
                                 @Min(value = 1, message = Paging.PAGE_RULE) int page,
                                 @RequestParam(defaultValue = Paging.DEFAULT_SIZE_TEXT)
                                 @Min(value = 1, message = Paging.SIZE_RULE)
                                 @Max(value = Paging.MAX_SIZE, message = Paging.SIZE_RULE) int size,
                                 @RequestParam(required = false)
                                 @Null(message = "limit: use page and size") String limit) {
        IPage<HandoverRow> rows = handover.history(skuId, page, size);
        return new Listing<>(rows.getRecords(), rows.getCurrent(), rows.getSize(), rows.getTotal());
    }
}
