package io.github.flashstock.sale;

import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.TcpProxy;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a {@link Drill} does to the system part-way through its sale, and how it brings the system back: one class per
 * kind of fault ({@link Faults#of} picks the drill's). {@link DrillRunner} calls {@link #prepare} before the sale,
 * {@link #inject} once a fifth of the buyers have their answer, waits {@link #outage}, then {@link #heal}, and
 * {@link #afterSale} when the sale is over. A fault object serves one drill run: it may keep what it hit between
 * {@code inject} and {@code heal}.
 */
interface Fault {

    /**
     * What a fault reaches: the devstack as the drill runs it, the services, the reader of the system's state, the
     * TCP proxy between the second inventory instance and Redis (made on first use), the run's id, its hot SKU and how
     * long the drill's outage lasts.
     */
    record Scene(DevStack stack, Services services, StateReader state, Supplier<TcpProxy> redisProxy, String runId,
                 String hotSku, Duration outage) {
    }

    /** When the fault struck and what it did: the start of the report's fault line. */
    record Hit(Instant at, String what) {
    }

    /** Before the sale: anything the fault needs in place; the ids of SKUs of its own, which the drill reads too. */
    default Set<String> prepare(Scene scene) {
        return Set.of();
    }

    /** Strikes; returns once the system is hit. */
    Hit inject(Scene scene);

    /** How long the system stays hit before {@link #heal}: the drill's outage, unless the fault has its own. */
    default Duration outage(Scene scene) {
        return scene.outage();
    }

    /** Brings back what {@link #inject} took away; returns what the recovery adds to the line (mostly nothing). */
    String heal(Scene scene);

    /** After the sale: waits for what the fault left running. */
    default void afterSale() {
    }
}
