package io.github.flashstock.inventory.allotment.web;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.support.web.Paging;
import io.github.flashstock.support.web.Paging.Listing;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every SKU's handovers still PENDING (MySQL's step done, Redis's not yet), oldest first, a page at a time
 * ({@link Paging}). Each completes on its own once Redis can run its step; an operator completes one at once by
 * sending it again with its operation id as {@code Idempotency-Key} ({@code POST /admin/skus/{id}/handovers}).
 */
@RestController
class PendingHandoverController {

    private final StockHandover handover;

    PendingHandoverController(StockHandover handover) {
        this.handover = handover;
    }

    @GetMapping("/admin/handovers/pending")
    Listing<HandoverRow> pending(@RequestParam(defaultValue = Paging.DEFAULT_PAGE)
                                 @Min(value = 1, message = Paging.PAGE_RULE) int page,
                                 @RequestParam(defaultValue = Paging.DEFAULT_SIZE_TEXT)
                                 @Min(value = 1, message = Paging.SIZE_RULE)
                                 @Max(value = Paging.MAX_SIZE, message = Paging.SIZE_RULE) int size) {
        IPage<HandoverRow> rows = handover.pending(page, size);
        return new Listing<>(rows.getRecords(), rows.getCurrent(), rows.getSize(), rows.getTotal());
    }
}
