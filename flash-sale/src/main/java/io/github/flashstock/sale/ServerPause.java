package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A devstack server stopped (SIGSTOP) for the outage, then let go on (SIGCONT). */
final class ServerPause implements Fault {

    private final Component server;
    /** How the report names the server and what was done to it: "Redis", "frozen". */
    private final String name;
    private final String done;
    private final Duration outage;

    ServerPause(Component server, String name, String done, Duration outage) {
        this.server = server;
        this.name = name;
        this.done = done;
        this.outage = outage;
    }

    Component server() {
        return server;
    }

    @Override
    public Hit inject(Scene scene) {
        Instant at = Instant.now();
        List<Long> pids = scene.stack().pause(server);
        return new Hit(at, name + " (PID " + pids + ") " + done + " for " + outage.toSeconds() + " s");
    }

    @Override
    public Duration outage() {
        return outage;
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().resume(server);
        return "";
    }
}
