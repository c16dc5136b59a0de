package io.github.flashstock.orderdemo.order;

import io.github.flashstock.orderdemo.inventory.InventoryClient;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.support.web.ProblemDetails;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/**
 * Refuses an order of a sold-out SKU without opening a global transaction for it. Most orders of a flash sale come
 * after the stock is gone; as global transactions, each costs a begin and a rollback at the coordinator and a
 * branch with its fence here, for an order that can only be refused.
 *
 * <p>Only SKUs an order of this instance was refused for (the inventory's {@code insufficient-stock}) are checked,
 * so orders of SKUs with stock pay nothing. For those the inventory service is asked for the units a Try could take
 * now ({@code GET /skus/{skuId}/available}: a fresh read, nothing reserved); when a line asks for more, the order is
 * refused with the same problem the Try would have given. Whenever the inventory cannot tell (it answers null: the
 * SKU's allotment may have units, Redis is unhealthy) or the call fails, the order goes ahead as a global
 * transaction, and its Try decides. A SKU found with enough units is checked no more until it is refused again.
 */
@Component
class SoldOutCheck {

    private static final String INSUFFICIENT_STOCK = "insufficient-stock";

    private final InventoryClient inventory;
    private final boolean enabled;
    /** SKUs an order of this instance was refused for and no check has found enough units of since. */
    private final Set<String> soldOut = ConcurrentHashMap.newKeySet();
    private final Counter refused;

    SoldOutCheck(InventoryClient inventory, @Value("${orders.sold-out.check-first:true}") boolean enabled,
                 MeterRegistry meters) {
        this.inventory = inventory;
        this.enabled = enabled;
        this.refused = Counter.builder("orders.refused-before-transaction")
                .description("orders of a sold-out SKU refused without a global transaction")
                .register(meters);
        meters.gaugeCollectionSize("orders.sold-out.skus", List.of(), soldOut);
    }

    /** The inventory refused an order: when for want of a SKU's units, that SKU's next orders are checked first. */
    void refused(InventoryRefused e) {
        ProblemDetail problem = e.problem();
        if (!enabled || problem.getType() == null || !problem.getType().toString().endsWith(":" + INSUFFICIENT_STOCK)
                || problem.getProperties() == null || !(problem.getProperties().get("skuId") instanceof String sku)) {
            return;
        }
        soldOut.add(sku);
    }

    /**
     * @param items merged lines (one per SKU)
     * @return the refusal when a line's SKU sold out and the inventory says it has fewer units than the line asks
     *         for; empty when the order should go ahead
     */
    Optional<InventoryRefused> refusal(List<OrderItem> items) {
        if (soldOut.isEmpty()) {
            return Optional.empty();
        }
        for (OrderItem item : items) {
            if (!soldOut.contains(item.skuId())) {
                continue;
            }
            OptionalLong available = inventory.available(item.skuId());
            if (available.isEmpty()) {
                return Optional.empty();
            }
            if (available.getAsLong() < item.quantity()) {
                refused.increment();
                ProblemDetail problem = ProblemDetails.of(HttpStatus.CONFLICT, INSUFFICIENT_STOCK, "Insufficient stock",
                        "SKU " + item.skuId() + " has " + available.getAsLong() + " unit(s) available, "
                                + item.quantity() + " requested");
                Map.<String, Object>of("skuId", item.skuId(), "requested", item.quantity(),
                        "available", available.getAsLong()).forEach(problem::setProperty);
                return Optional.of(new InventoryRefused(problem));
            }
            soldOut.remove(item.skuId());
        }
        return Optional.empty();
    }
}
