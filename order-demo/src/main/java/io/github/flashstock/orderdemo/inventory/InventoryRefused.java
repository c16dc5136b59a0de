package io.github.flashstock.orderdemo.inventory;

import org.springframework.http.ProblemDetail;

/**
 * The inventory service refused the reservation with a 4xx problem (insufficient stock, purchase limit, unknown SKU,
 * ...). The problem is kept as it came, so the caller of this service sees the same type and facts.
 */
public class InventoryRefused extends RuntimeException {

    private final transient ProblemDetail problem;

    public InventoryRefused(ProblemDetail problem) {
        super("inventory refused: " + problem.getType() + " " + problem.getDetail(), null, false, false);
        this.problem = problem;
    }

    public ProblemDetail problem() {
        return problem;
    }
}
