package io.github.flashstock.inventory.catalog.web;

import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.web.Problems;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class StockController {

    private final StockCatalog catalog;

    StockController(StockCatalog catalog) {
        this.catalog = catalog;
    }

    record RedisSide(long stocked, long available, long reserved, long sold, int perUserLimit, int segments, List<RedisStock.Segment> segmentDetails) {
    }

    /** The allotment: what only the MySQL store may sell ({@code available}), what is on its way there, what it sold. */
    record Allotment(long available, long incoming, long sold) {
    }

    record MysqlSide(long stocked, long available, long reserved, long sold, Allotment allotment, Integer perUserLimit,
                     long version) {
    }

    record StockResponse(String skuId, RedisSide redis, MysqlSide mysql) {
    }

    /**
     * The SKU in Redis and in MySQL, side by side, in the same words: stocked, available, reserved, sold (always
     * {@code available + reserved + sold == stocked} on each side), plus Redis's segments and the MySQL store's allotment (part
     * of MySQL's {@code available} and {@code sold}: the units only the MySQL store may sell, and those it sold).
     * For the admin only ({@link AdminPaths}): it shows what an operator reconciles with, and what a buyer
     * has no use for and a bot would time its orders by (reservations in flight, the per-user limit, the segments,
     * the MySQL store's allotment, the row's version). A buyer, or an order service, asks {@code GET /skus/{id}/available}: the
     * units a Try could take now, nothing else.
     */
    @GetMapping("/skus/{skuId}/stock")
    ResponseEntity<?> stock(@PathVariable @Pattern(regexp = AdminController.SKU_ID) String skuId) {
        return catalog.view(skuId).<ResponseEntity<?>>map(v -> {
            RedisStock r = v.redis();
            SkuStockRow m = v.mysql();
            return ResponseEntity.ok(new StockResponse(skuId,
                    r == null ? null : new RedisSide(r.stocked(), r.available(), r.reserved(), r.sold(),
                            r.limit(), r.segments(), r.segmentsView()),
                    m == null ? null : new MysqlSide(m.stocked(), m.available(), m.reserved(), m.sold(),
                            new Allotment(m.allotmentAvailable(), m.allotmentIncoming(), m.allotmentSold()),
                            m.perUserLimit(), m.version())));
        }).orElseGet(() -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId)));
    }
}
