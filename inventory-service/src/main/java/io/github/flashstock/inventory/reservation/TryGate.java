package io.github.flashstock.inventory.reservation;

/**
 * Called by the Try after Seata registered its branch and before the script runs: the window in which a Cancel
 * can overtake a Try in production (a slow network, a paused JVM). The service's own bean does nothing; tests
 * replace it to hold a Try in that window and prove the fence refuses it once its Cancel has run.
 */
@FunctionalInterface
interface TryGate {

    void beforeScript(String xid, String reservationId);
}
