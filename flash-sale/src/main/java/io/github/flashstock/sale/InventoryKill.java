package io.github.flashstock.sale;

import java.time.Duration;
import java.time.Instant;

/** The first inventory-service instance kill -9, started again after the outage. */
final class InventoryKill implements Fault {

    private ServiceProcess victim;

    @Override
    public Hit inject(Scene scene) {
        victim = scene.services().inventories().get(0);
        long pid = victim.pid();
        Instant at = Instant.now();
        victim.kill();
        return new Hit(at, victim.name() + " (PID " + pid + ") killed");
    }

    @Override
    public String heal(Scene scene) {
        victim.start(Duration.ofMinutes(3));
        return "";
    }
}
