package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

/**
 * One of two Seata TCs kill -9 mid-sale, left down until the sale is over: the services, which find the TCs through
 * Nacos, go on with the other one, which also finishes the dead one's transactions from the shared db store once
 * they are overdue. The second TC dies: the first serves the console the reconciler reads.
 */
final class TcKillOne implements Fault {

    private static final int VICTIM = 1;

    private Fault.Scene scene;

    @Override
    public Hit inject(Scene scene) {
        this.scene = scene;
        Instant at = Instant.now();
        List<Long> pids = scene.stack().kill(Component.SEATA, DevStack.seataProcess(VICTIM));
        if (pids.isEmpty()) {
            throw new IllegalStateException("Seata TC " + (VICTIM + 1) + " was not running");
        }
        return new Hit(at, "Seata TC " + (VICTIM + 1) + " of 2 (RPC port "
                + scene.stack().config().seataPort(VICTIM) + ", PID " + pids + ") killed");
    }

    @Override
    public String heal(Scene scene) {
        return "; it stays down until the sale is over";
    }

    /** Starts the dead TC again (it rejoins the cluster and Nacos lists it once it answers). */
    @Override
    public void afterSale() {
        if (scene != null) {
            scene.stack().up(EnumSet.of(Component.SEATA));
        }
    }
}
