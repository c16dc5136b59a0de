package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.buyers.Buyer;
import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.inventory.InventoryUnavailable;
import io.github.flashstock.orderdemo.order.CoordinatorFailures;
import io.github.flashstock.orderdemo.order.Order;
import io.github.flashstock.orderdemo.order.OrderItem;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.PlacingOrders;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import jakarta.validation.Valid;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** Orders over HTTP, each request on behalf of the {@link Buyer} its token names. */
@RestController
@SecurityScheme(name = "buyer", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT")
@SecurityRequirement(name = "buyer")
class OrderController {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(OrderController.class);

    private final PlacingOrders placing;
    private final ReadingOrders reading;
    private final Faults faults;
    private final MeterRegistry meters;
    private final java.time.Duration coordinatorRetryWithin;

    OrderController(PlacingOrders placing, ReadingOrders reading, Faults faults, MeterRegistry meters,
            @org.springframework.beans.factory.annotation.Value("${orders.coordinator.retry-within:5s}")
            java.time.Duration coordinatorRetryWithin) {
        this.placing = placing;
        this.reading = reading;
        this.faults = faults;
        this.meters = meters;
        this.coordinatorRetryWithin = coordinatorRetryWithin;
    }

    /**
     * What a buyer is told of an order placed. The XID of its global transaction is not among it: it names the
     * coordinator's session, which is the operators' business (it stays in the orders table).
     */
    record PlacedOrder(String orderId, OrderStatus status) {
    }

    /** An order as its buyer sees it: everything stored but the XID. */
    record OrderDetails(String orderId, String userId, OrderStatus status, List<OrderItem> items, Instant createdAt,
                        Instant updatedAt) {

        static OrderDetails of(Order order) {
            return new OrderDetails(order.orderId(), order.userId(), order.status(), order.items(), order.createdAt(),
                    order.updatedAt());
        }
    }

    /**
     * Places the order in a new global transaction for the buyer of the request's token (whose user id the purchase
     * limits count under); 201 once it committed and the order is CONFIRMED ({@link #afterCommit}). A refusal by the
     * inventory service comes back as the same problem (with {@code orderId} added), after the transaction rolled
     * back. When the call fails in a way that leaves the outcome open (the coordinator unreachable while committing,
     * a commit that timed out), the answer never guesses: see {@link #afterFailure}.
     */
    @PostMapping("/orders")
    ResponseEntity<PlacedOrder> place(@Valid @RequestBody OrderRequest request, Buyer buyer,
                                      @RequestHeader(name = Fault.HEADER, required = false) String faultHeader,
                                      @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String key) {
        Fault fault = faults.requested(faultHeader);
        placing.check(request.items());
        if (key != null && !key.matches(KEY_PATTERN)) {
            throw new InvalidIdempotencyKey();
        }
        String orderId = key != null ? key : UUID.randomUUID().toString();
        if (key != null) {
            Optional<Order> earlier;
            try {
                earlier = reading.findIfAny(orderId);
            } catch (RuntimeException unreadable) {
                // nothing written yet: the answer is that the order was not placed (503 when the database is away)
                throw new OrderFailed(orderId, unreadable);
            }
            if (earlier.isPresent()) {
                return again(earlier.get(), buyer, request);
            }
        }
        try {
            placing.refuseIfSoldOut(orderId, buyer.userId(), request.items());
            placeInTransaction(orderId, buyer.userId(), request.items(), fault);
        } catch (RuntimeException e) {
            return afterFailure(orderId, e);
        }
        return afterCommit(orderId);
    }

    /**
     * The global transaction's commit returned: Seata's client returns from it whatever status the coordinator
     * answered, and a coordinator that could not write its store (its database cut or killed while committing)
     * answers {@code Committing} with a failed result, which the client does not raise; such a session is still
     * {@code Begin} in the store, and the coordinator rolls it back when it times out. So the answer is read from the
     * order branch's own record, which the coordinator's Confirm moves (phase two runs before a commit reports
     * {@code Committed}):
     * <ul>
     *   <li>CONFIRMED: 201.</li>
     *   <li>PENDING: the commit is not known to have taken; 202 with {@code Location} to poll, as after a failed
     *   commit call ({@link #afterFailure}).</li>
     *   <li>CANCELLED: the coordinator rolled the order back after all: 409 {@code order-cancelled}.</li>
     *   <li>The database cannot be read: 503 {@code order-outcome-unknown}.</li>
     * </ul>
     */
    private ResponseEntity<PlacedOrder> afterCommit(String orderId) {
        OrderStatus status;
        try {
            status = reading.status(orderId);
        } catch (RuntimeException unreadable) {
            meters.counter("orders.placed", "outcome", "unknown").increment();
            throw new OutcomeUnknown(orderId, unreadable);
        }
        switch (status) {
            case CONFIRMED:
                meters.counter("orders.placed", "outcome", "committed").increment();
                return ResponseEntity.created(URI.create("/orders/" + orderId)).body(new PlacedOrder(orderId, status));
            case PENDING:
                log.warn("order {}: the coordinator returned from its commit but the order is not confirmed; answered"
                        + " 202 to poll", orderId);
                meters.counter("orders.placed", "outcome", "unknown").increment();
                return ResponseEntity.accepted().location(URI.create("/orders/" + orderId))
                        .body(new PlacedOrder(orderId, status));
            default:
                meters.counter("orders.placed", "outcome", "rolled-back").increment();
                throw new EarlierCancelled(orderId);
        }
    }

    /**
     * Places the order in a global transaction, and in a new one when the coordinator failed the last before the
     * order's branch opened (its begin or its branch registration went to a TC that died, one of several): nothing of
     * the order was written then, and the stock was not asked for, so a second try can neither double it nor meet a
     * phase of the first (the order branch's phases act only on the row of their own XID). New transactions go on
     * while the pauses between them, the next one included, add up to at most {@code orders.coordinator.retry-within}
     * (5 s); the pauses double from {@value #FIRST_PAUSE_MS} ms up to {@value #LONGEST_PAUSE_MS} ms. The time the
     * failed calls took is not counted: a call in flight to a TC that died waits out Seata's RPC timeout (5 s) before
     * it fails, and such an order still deserves its next transaction. Any other failure, or one after the order's
     * branch opened, is the caller's to answer.
     */
    private void placeInTransaction(String orderId, String userId, List<OrderItem> items, Fault fault) {
        long paused = 0;
        long pause = FIRST_PAUSE_MS;
        while (true) {
            PlacingOrders.Progress progress = new PlacingOrders.Progress();
            try {
                placing.place(orderId, userId, items, fault, progress);
                return;
            } catch (RuntimeException e) {
                if (progress.opened() || !CoordinatorFailures.is(e)
                        || paused + pause > coordinatorRetryWithin.toMillis()) {
                    throw e;
                }
                meters.counter("orders.coordinator.retried", "stage", progress.began() ? "branch" : "begin")
                        .increment();
                log.info("order {}: the coordinator failed its transaction's {} ({}); placing it in a new one",
                        orderId, progress.began() ? "order branch" : "begin", e.toString());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                paused += pause;
                pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
            }
        }
    }

    /** The pause before the second transaction of a placement; each later one doubles it, up to the longest. */
    static final long FIRST_PAUSE_MS = 50;
    static final long LONGEST_PAUSE_MS = 1000;

    /**
     * The same request again (a caller retrying after it lost the answer, perhaps on another instance): the order
     * placed under its key, as it stands now; never a second order. CANCELLED means that earlier placement did not
     * happen: 409 {@code order-cancelled}, and a new key places the order anew.
     */
    private ResponseEntity<PlacedOrder> again(Order earlier, Buyer buyer, OrderRequest request) {
        if (!earlier.userId().equals(buyer.userId())
                || !earlier.items().equals(PlacingOrders.merge(request.items()))) {
            throw new KeyReused(earlier.orderId());
        }
        meters.counter("orders.placed", "outcome", "repeated").increment();
        return switch (earlier.status()) {
            case CONFIRMED -> ResponseEntity.created(URI.create("/orders/" + earlier.orderId()))
                    .body(new PlacedOrder(earlier.orderId(), earlier.status()));
            case PENDING -> ResponseEntity.accepted().location(URI.create("/orders/" + earlier.orderId()))
                    .body(new PlacedOrder(earlier.orderId(), earlier.status()));
            case CANCELLED -> throw new EarlierCancelled(earlier.orderId());
        };
    }

    /**
     * What a failed placement call says depends on where the order stands now, read from this service's database
     * (the order branch's own record of its phases):
     * <ul>
     *   <li>CONFIRMED: the coordinator committed even though the call failed (its answer was lost): 201, as for
     *   any committed order.</li>
     *   <li>PENDING after anything but a refusal by the inventory service or an injected failure (the coordinator
     *   unreachable during commit, a timeout): nobody knows yet; 202 with status PENDING and {@code Location} to
     *   poll. The coordinator finishes it one way or the other, and {@code GET /orders/{id}} then says which.</li>
     *   <li>The database cannot be read: 503 {@code order-outcome-unknown} with the order id to poll.</li>
     *   <li>Otherwise (CANCELLED, never written, or refused by inventory, whose rollback the coordinator
     *   completes): the failure, as before.</li>
     * </ul>
     */
    private ResponseEntity<PlacedOrder> afterFailure(String orderId, RuntimeException failure) {
        Optional<Order> now;
        try {
            now = reading.findIfAny(orderId);
        } catch (RuntimeException unreadable) {
            meters.counter("orders.placed", "outcome", "unknown").increment();
            throw new OutcomeUnknown(orderId, failure);
        }
        OrderStatus status = now.map(Order::status).orElse(null);
        if (status == OrderStatus.CONFIRMED) {
            meters.counter("orders.placed", "outcome", "committed").increment();
            return ResponseEntity.created(URI.create("/orders/" + orderId))
                    .body(new PlacedOrder(orderId, status));
        }
        if (status == OrderStatus.PENDING && !decided(failure)) {
            meters.counter("orders.placed", "outcome", "unknown").increment();
            return ResponseEntity.accepted().location(URI.create("/orders/" + orderId))
                    .body(new PlacedOrder(orderId, status));
        }
        meters.counter("orders.placed", "outcome", "rolled-back").increment();
        throw new OrderFailed(orderId, failure);
    }

    /** Failures that end in a rollback whatever else happens: the order will be CANCELLED. */
    private static boolean decided(RuntimeException failure) {
        return failure instanceof InventoryRefused || failure instanceof InventoryUnavailable
                || failure instanceof Faults.InjectedFailure;
    }

    /** The order, to its buyer only: another buyer is refused (403) and learns nothing but that it exists. */
    @GetMapping("/orders/{orderId}")
    OrderDetails order(@PathVariable String orderId, Buyer buyer) {
        Order order = reading.find(orderId);
        if (!order.userId().equals(buyer.userId())) {
            throw new OrderOfAnotherBuyer(orderId);
        }
        return OrderDetails.of(order);
    }

    /** Header naming a placement, so that a retry of it returns that order instead of placing another. */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** 8 to 64 letters, digits, '-' or '_': it becomes the order id. */
    static final String KEY_PATTERN = "[A-Za-z0-9][A-Za-z0-9_-]{7,63}";

    /** An Idempotency-Key that cannot be an order id. */
    static final class InvalidIdempotencyKey extends RuntimeException {
        InvalidIdempotencyKey() {
            super("Idempotency-Key must be 8 to 64 letters, digits, '-' or '_', starting with a letter or digit",
                    null, false, false);
        }
    }

    /** The order asked for was placed by another buyer. */
    static final class OrderOfAnotherBuyer extends RuntimeException {
        final String orderId;

        OrderOfAnotherBuyer(String orderId) {
            super("order " + orderId + " is another buyer's", null, false, false);
            this.orderId = orderId;
        }
    }

    /** An Idempotency-Key already used for a different order. */
    static final class KeyReused extends RuntimeException {
        final String orderId;

        KeyReused(String orderId) {
            super("this Idempotency-Key already placed a different order (other user or items)", null, false, false);
            this.orderId = orderId;
        }
    }

    /** The placement under this key was rolled back. */
    static final class EarlierCancelled extends RuntimeException {
        final String orderId;

        EarlierCancelled(String orderId) {
            super("the order placed under this Idempotency-Key was cancelled; use a new key to order again", null,
                    false, false);
            this.orderId = orderId;
        }
    }

    /** A placement whose outcome cannot be read now: the order id to ask about later. */
    static final class OutcomeUnknown extends RuntimeException {
        final String orderId;

        OutcomeUnknown(String orderId, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.orderId = orderId;
        }
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
