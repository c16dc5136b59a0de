package io.github.flashstock.inventory.reservation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@link TryGate} that holds the Tries of chosen reservations until the test lets them go. */
public class HeldTryGate implements TryGate {

    /** A held Try: {@code entered} opens when it reaches the gate, {@code release} lets it run its script. */
    public record Hold(CountDownLatch entered, CountDownLatch release) {
    }

    private final Map<String, Hold> holds = new ConcurrentHashMap<>();

    public Hold hold(String reservationId) {
        Hold h = new Hold(new CountDownLatch(1), new CountDownLatch(1));
        holds.put(reservationId, h);
        return h;
    }

    @Override
    public void beforeScript(String xid, String reservationId) {
        Hold h = holds.remove(reservationId);
        if (h == null) {
            return;
        }
        h.entered().countDown();
        try {
            if (!h.release().await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("held Try of " + reservationId + " never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
