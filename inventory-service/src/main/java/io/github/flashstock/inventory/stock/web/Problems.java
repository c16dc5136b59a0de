package io.github.flashstock.inventory.stock.web;

import io.github.flashstock.support.web.ProblemDetails;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** Problems more than one part of this service answers with (see {@link ProblemDetails} for the vocabulary). */
public final class Problems {

    private Problems() {
    }

    /** 404 {@code unknown-sku}, with the SKU id as a property. */
    public static ProblemDetail unknownSku(String skuId) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.NOT_FOUND, "unknown-sku", "Unknown SKU", "no SKU " + skuId);
        p.setProperty("skuId", skuId);
        return p;
    }

    /** 409 {@code sale-closed}: the SKU's sale is closed for good, with the SKU id as a property. */
    public static ProblemDetail saleClosed(String skuId) {
        ProblemDetail p = ProblemDetails.of(HttpStatus.CONFLICT, "sale-closed", "Sale closed",
                "the sale of SKU " + skuId + " is closed; nothing was reserved");
        p.setProperty("skuId", skuId);
        return p;
    }
}
