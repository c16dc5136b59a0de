package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Instant;
import java.util.List;

/** A devstack server stopped (SIGSTOP) for the outage, then let go on (SIGCONT). */
final class ServerPause implements Fault {

    private final Component server;
    /** How the report names the server and what was done to it: "Redis", "frozen". */
    private final String name;
    private final String done;

    ServerPause(Component server, String name, String done) {
        this.server = server;
        this.name = name;
        this.done = done;
    }

    Component server() {
        return server;
    }

    @Override
    public Hit inject(Scene scene) {
        Instant at = Instant.now();
        List<Long> pids = scene.stack().pause(server);
        return new Hit(at, name + " (PID " + pids + ") " + done + " for " + scene.outage().toSeconds() + " s");
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().resume(server);
        return "";
    }
}
