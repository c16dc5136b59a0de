package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.order.Order;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.PlacingOrders;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {

    private final PlacingOrders placing;
    private final ReadingOrders reading;
    private final Faults faults;
    private final MeterRegistry meters;

    OrderController(PlacingOrders placing, ReadingOrders reading, Faults faults, MeterRegistry meters) {
        this.placing = placing;
        this.reading = reading;
        this.faults = faults;
        this.meters = meters;
    }

    record PlacedOrder(String orderId, String xid, OrderStatus status) {
    }

    /**
     * Places the order in a new global transaction; 201 once it committed. A refusal by the inventory service comes
     * back as the same problem (with {@code orderId} added), after the transaction rolled back.
     */
    @PostMapping("/orders")
    ResponseEntity<PlacedOrder> place(@Valid @RequestBody OrderRequest request,
                                      @RequestHeader(name = Fault.HEADER, required = false) String faultHeader) {
        Fault fault = faults.requested(faultHeader);
        placing.check(request.items());
        String orderId = UUID.randomUUID().toString();
        String xid;
        try {
            xid = placing.place(orderId, request.userId(), request.items(), fault);
        } catch (RuntimeException e) {
            meters.counter("orders.placed", "outcome", "rolled-back").increment();
            throw new OrderFailed(orderId, e);
        }
        meters.counter("orders.placed", "outcome", "committed").increment();
        return ResponseEntity.created(URI.create("/orders/" + orderId))
                .body(new PlacedOrder(orderId, xid, reading.status(orderId)));
    }

    @GetMapping("/orders/{orderId}")
    Order order(@PathVariable String orderId) {
        return reading.find(orderId);
    }

    /** A placement that rolled back: the order id and what caused it. */
    static final class OrderFailed extends RuntimeException {
        final String orderId;

        OrderFailed(String orderId, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.orderId = orderId;
        }
    }
}
