package io.github.flashstock.inventory.reservation;

/**
 * A Try refused: nothing of the reservation was reserved. The one exception a refusal travels in, carrying the
 * outcome that says why ({@link TryOutcome.Refusal}); the API answers it with the problem type of its code.
 */
public final class TryRefused extends RuntimeException {

    private final transient TryOutcome.Refusal refusal;

    public TryRefused(TryOutcome.Refusal refusal) {
        super(refusal.message(), null, false, false);
        this.refusal = refusal;
    }

    public TryOutcome.Refusal refusal() {
        return refusal;
    }
}
