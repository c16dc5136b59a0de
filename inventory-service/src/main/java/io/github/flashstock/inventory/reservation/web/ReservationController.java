package io.github.flashstock.inventory.reservation.web;

import io.github.flashstock.inventory.InventorySettings;
import io.github.flashstock.inventory.reservation.ReservationLines;
import io.github.flashstock.inventory.reservation.ReservingStock;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import jakarta.validation.Valid;
import java.util.List;
import org.apache.seata.core.context.RootContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReservationController {

    private static final java.util.regex.Pattern XID = java.util.regex.Pattern.compile(StockKeys.XID);

    private final ReservingStock reserving;
    private final InventorySettings settings;

    ReservationController(ReservingStock reserving, InventorySettings settings) {
        this.reserving = reserving;
        this.settings = settings;
    }

    /** The reservation as made: lines merged per SKU. */
    record ReservationView(String reservationId, String userId, String xid, List<StockLine> lines, String status) {
    }

    /**
     * Reserves stock as a branch of the caller's Seata global transaction, whose XID comes in header
     * {@code TX_XID}. Only a request that a known service signed reaches this method ({@code InventorySecurity}), and
     * only here, once the request is read and checked, is that XID bound to the thread (and unbound after): Seata's own
     * HTTP interceptor, which binds any request's header on any path, is off. Answers 201 (also for a replay, which
     * reserves nothing more).
     */
    @PostMapping("/reservations")
    ResponseEntity<ReservationView> reserve(@RequestHeader(name = RootContext.KEY_XID, required = false) String xid,
                                            @Valid @RequestBody ReservationRequest request) {
        if (xid == null || xid.isBlank()) {
            throw new MissingTransaction();
        }
        if (!XID.matcher(xid).matches()) {
            throw new InvalidReservation("header " + RootContext.KEY_XID + " is not a Seata global transaction id"
                    + " (address:port:number)");
        }
        ReservationLines lines = ReservationLines.of(request.lines().stream()
                .map(i -> new StockLine(i.skuId(), i.quantity())).toList(), settings.maxLines(),
                settings.maxQuantityPerLine());
        String bound = RootContext.getXID();
        if (bound != null) {
            throw new IllegalStateException("a global transaction (" + bound + ") is bound to this request's thread"
                    + " already: is seata.client.http.interceptor-enabled on?");
        }
        RootContext.bind(xid);
        try {
            reserving.reserve(request.reservationId(), request.userId(), lines);
        } finally {
            RootContext.unbind();
        }
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new ReservationView(request.reservationId(), request.userId(), xid, lines.lines(), "TRIED"));
    }

    /** No global transaction came with the request. */
    static final class MissingTransaction extends RuntimeException {
        MissingTransaction() {
            super("header " + RootContext.KEY_XID + " with the Seata global transaction id is required", null, false,
                    false);
        }
    }

    /** A header the bean constraints cannot check. */
    static final class InvalidReservation extends RuntimeException {
        InvalidReservation(String message) {
            super(message, null, false, false);
        }
    }
}
