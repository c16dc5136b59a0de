package io.github.flashstock.sale;

import io.github.flashstock.clients.ServiceHttp;
import io.github.flashstock.devstack.DevStackConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One Spring Boot service run from its jar in a JVM of its own, on 127.0.0.1, logging to a file (started the
 * quick way, see {@link QuickStart}), with profile {@value #DEVSTACK_PROFILE}. Ready once {@code /actuator/health}
 * answers UP. Stopped by its PID (the one this object started, never another).
 */
public final class ServiceProcess {

    private final String name;
    private final Path jar;
    private final int port;
    private final List<String> args;
    private final Map<String, String> env;
    private final Path log;
    /** Arguments after {@link #args} for the next launches (a drill's own settings). */
    private List<String> extraArgs = List.of();
    private Process process;
    private QuickStart quickStart;
    /** The current launch's key for its class-data archive; null when nothing runs. */
    private String launched;

    public ServiceProcess(String name, Path jar, int port, List<String> args, Map<String, String> env, Path log) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(name + ": no jar at " + jar + " (build it first: ./mvnw -DskipTests install)");
        }
        this.name = name;
        this.jar = jar;
        this.port = port;
        this.args = List.copyOf(args);
        this.env = Map.copyOf(env);
        this.log = log;
    }

    public String name() {
        return name;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public Path log() {
        return log;
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Whether the JVM launched last still runs (false before any launch, and after it ended or failed to start). */
    public synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    /**
     * Sets the arguments the next launches add after the configured ones.
     *
     * @return whether they differ from those in force (a running JVM then needs a restart to take them)
     */
    public synchronized boolean useExtraArgs(List<String> extra) {
        boolean changed = !extraArgs.equals(extra);
        extraArgs = List.copyOf(extra);
        return changed;
    }

    /** Launches the JVM without waiting for it; see {@link #awaitReady(Duration)}. */
    public synchronized void launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " already runs as PID " + process.pid());
        }
        if (quickStart == null) {
            quickStart = QuickStart.of(jar);
        }
        ended(false);
        launched = UUID.randomUUID().toString();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions());
        command.addAll(quickStart.archive().options(launched));
        command.addAll(List.of("-Duser.home=" + log.getParent(), "-jar", quickStart.launchJar().toString()));
        command.addAll(args);
        command.addAll(extraArgs);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true);
        // what decides where configuration, peers and the coordinator come from, and whose tokens are trusted, is
        // set here or not at all: never inherited from whoever runs this (a shell that exported NACOS_SERVER_ADDR
        // would change the mode)
        builder.environment().keySet().removeIf(k -> k.startsWith("NACOS_") || k.startsWith("SEATA_")
                || k.equals("FLASHSTOCK_CONFIG_SOURCE") || k.startsWith("ORDERS_BUYERS_")
                || k.startsWith("SPRING_SECURITY_OAUTH2_"));
        // the services run on the devstack here, with its passwords, which they refuse without this profile
        // (DevstackCredentials in service-support); included, so that a profile a caller activates adds to it
        builder.environment().put("SPRING_PROFILES_INCLUDE", DEVSTACK_PROFILE);
        builder.environment().putAll(env);
        try {
            Files.createDirectories(log.getParent());
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** The profile the services accept the devstack's passwords and open their details in. */
    static final String DEVSTACK_PROFILE = "devstack";

    /** Options every service JVM gets unless {@link #JVM_OPTIONS} says otherwise: a quick start on two cores. */
    static final String DEFAULT_JVM_OPTIONS = "-Xms128m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    /**
     * System property (or, as {@code FLASHSTOCK_SERVICE_JVM_OPTIONS}, environment variable) with the heap, GC and JIT
     * options of the service JVMs, separated by spaces; {@code bin/bench-order} compares settings with it.
     */
    public static final String JVM_OPTIONS = "flashstock.service.jvm-options";

    static List<String> jvmOptions() {
        return DevStackConfig.jvmOptions(JVM_OPTIONS, DEFAULT_JVM_OPTIONS);
    }

    /** Waits until the service reports UP; fails early, naming the log, when its JVM exits. */
    public void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            Process p;
            synchronized (this) {
                p = process;
            }
            if (p == null || !p.isAlive()) {
                throw new IllegalStateException(name + " exited during start; see " + log);
            }
            if (healthy()) {
                return;
            }
            sleep(Duration.ofMillis(300));
        }
        throw new IllegalStateException(name + " not ready after " + timeout + "; see " + log);
    }

    /** Launches and waits for readiness. */
    public void start(Duration timeout) {
        launch();
        awaitReady(timeout);
    }

    boolean healthy() {
        try {
            HttpResponse<String> health = ServiceHttp.client().send(HttpRequest.newBuilder(
                    URI.create(url() + "/actuator/health")).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            // the top-level status, wherever the serializer puts it among the other fields
            return health.statusCode() == 200
                    && ServiceHttp.tree(health.body()).path("status").asText().equals("UP");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Asks the JVM to shut down (SIGTERM) and waits; kills it when it does not end in time. */
    public synchronized void stop(Duration grace) {
        if (process == null) {
            return;
        }
        process.destroy();
        boolean graceful = false;
        try {
            graceful = process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            if (!graceful) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        ended(graceful);
    }

    /** {@link #stop}s each of {@code processes} on a thread of its own and returns once every one has ended. */
    static void stopAll(List<ServiceProcess> processes, Duration grace) {
        List<Thread> stopping = new ArrayList<>();
        for (ServiceProcess p : processes) {
            Thread t = new Thread(() -> p.stop(grace), "stop-" + p.name());
            t.start();
            stopping.add(t);
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Ends the JVM at once (SIGKILL), as a crash or a pulled plug would: no shutdown hook runs. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        try {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        ended(false);
    }

    /** The last launch is over: its class-data archive, if it wrote one, is kept only after a graceful end. */
    private void ended(boolean graceful) {
        if (launched != null) {
            quickStart.archive().ended(launched, graceful);
            launched = null;
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
