package io.github.flashstock.orderdemo.order.web;

import com.baomidou.mybatisplus.core.metadata.IPage;
import io.github.flashstock.orderdemo.order.OrderRow;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import io.github.flashstock.support.web.Paging;
import io.github.flashstock.support.web.Paging.Listing;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.time.Instant;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Orders as the operators see them, every buyer's, with their XIDs; under {@code /admin}, so behind the admin token. */
@RestController
class AdminOrdersController {

    static final String STATUS = "PENDING|CONFIRMED|CANCELLED";
    static final String STATUS_RULE = "status: must be PENDING, CONFIRMED or CANCELLED";

    private final ReadingOrders reading;

    AdminOrdersController(ReadingOrders reading) {
        this.reading = reading;
    }

    /** One order of the listing: its row, without its lines ({@code GET /orders/{id}} has them, for its buyer). */
    record OrderEntry(String orderId, String userId, OrderStatus status, String xid, Instant createdAt,
                      Instant updatedAt) {

        static OrderEntry of(OrderRow row) {
            return new OrderEntry(row.orderId(), row.userId(), OrderStatus.valueOf(row.status()), row.xid(),
                    row.createdAt(), row.updatedAt());
        }
    }

    /** The orders, newest first, of one {@code status} or all, a page at a time ({@link Paging}). */
    @GetMapping("/admin/orders")
    Listing<OrderEntry> orders(@RequestParam(required = false)
                               @Pattern(regexp = STATUS, message = STATUS_RULE) String status,
                               @RequestParam(defaultValue = Paging.DEFAULT_PAGE)
                               @Min(value = 1, message = Paging.PAGE_RULE) int page,
                               @RequestParam(defaultValue = Paging.DEFAULT_SIZE_TEXT)
                               @Min(value = 1, message = Paging.SIZE_RULE)
                               @Max(value = Paging.MAX_SIZE, message = Paging.SIZE_RULE) int size) {
        IPage<OrderRow> rows = reading.page(status == null ? null : OrderStatus.valueOf(status), page, size);
        return new Listing<>(rows.getRecords().stream().map(OrderEntry::of).toList(), rows.getCurrent(),
                rows.getSize(), rows.getTotal());
    }
}
