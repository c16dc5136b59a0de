package io.github.flashstock.inventory.stock.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** The problem types this service answers with; their URIs are stable and documented in the README. */
public final class Problems {

    private Problems() {
    }

    /** 404 {@code unknown-sku}, with the SKU id as a property. */
    public static ProblemDetail unknownSku(String skuId) {
        ProblemDetail p = of(HttpStatus.NOT_FOUND, "unknown-sku", "Unknown SKU", "no SKU " + skuId);
        p.setProperty("skuId", skuId);
        return p;
    }

    public static ProblemDetail of(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("urn:flashstock:problem:" + type));
        p.setTitle(title);
        return p;
    }
}
