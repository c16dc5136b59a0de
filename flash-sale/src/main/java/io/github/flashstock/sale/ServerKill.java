package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

/** A devstack server (the Seata TC, Redis, MariaDB) kill -9, started again after the outage. */
final class ServerKill implements Fault {

    private final Component server;

    ServerKill(Component server) {
        this.server = server;
    }

    Component server() {
        return server;
    }

    @Override
    public Hit inject(Scene scene) {
        Instant at = Instant.now();
        List<Long> pids = scene.stack().kill(server);
        return new Hit(at, server.cliName() + " (PID " + pids + ") killed");
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().up(EnumSet.of(server));
        return "";
    }
}
