package io.github.flashstock.inventory.reservation.web;

import io.github.flashstock.inventory.reservation.SoldOutShortcut;
import jakarta.validation.constraints.Pattern;
import java.util.OptionalLong;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class AvailableController {

    private final SoldOutShortcut soldOut;

    AvailableController(SoldOutShortcut soldOut) {
        this.soldOut = soldOut;
    }

    /** {@code available}: units a Try could take now; null when only a Try can tell. */
    record Available(String skuId, Long available) {
    }

    /**
     * The units of a SKU a Try could take now, read from Redis, with no transaction and nothing reserved: a caller
     * that was refused for want of the SKU's units asks this before it opens another global transaction for it. A
     * fresh read every time. {@code available} is null whenever a Try is the only one that can tell: the SKU's
     * allotment may have units, Redis is not healthy, or the SKU is unknown or stale in Redis.
     */
    @GetMapping("/skus/{skuId}/available")
    Available available(@PathVariable @Pattern(regexp = ReservationRequest.ID) String skuId) {
        OptionalLong units = soldOut.availableNow(skuId);
        return new Available(skuId, units.isPresent() ? units.getAsLong() : null);
    }
}
