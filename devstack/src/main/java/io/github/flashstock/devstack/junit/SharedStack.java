package io.github.flashstock.devstack.junit;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.Endpoints;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The one stack of a test run. The first test JVM of a build that finds a server down starts it and hands the
 * stack to the build: a detached watcher stops it when the Maven process exits, however the build ends. A
 * stack that was already up (the developer's {@code devstack up}) is reused and left running.
 */
public final class SharedStack {

    private static final Set<Component> ENSURED = EnumSet.noneOf(Component.class);
    private static DevStack stack;

    private SharedStack() {
    }

    /** Makes sure the given servers run; cheap after the first call for the same servers in this JVM. */
    public static synchronized Endpoints ensure(Set<Component> components) {
        if (stack == null) {
            stack = DevStack.fromEnvironment();
        }
        if (!ENSURED.containsAll(components)) {
            DevStack.UpReport report = stack.up(components);
            if (report.startedAny()) {
                stack.claimForBuild(buildPid());
            }
            ENSURED.addAll(components);
        }
        return stack.endpoints();
    }

    /**
     * Stops one server of the shared stack, runs {@code outage}, then brings the server back (even when the
     * outage fails). For tests of what happens while a server is down.
     */
    public static synchronized void during(Component down, Runnable outage) {
        ensure(java.util.EnumSet.of(down));
        stack.stop(down);
        try {
            outage.run();
        } finally {
            stack.up(java.util.EnumSet.of(down));
        }
    }

    /**
     * Ends some of a server's processes with SIGKILL, as a crash would ({@code node-16381} names one Redis Cluster
     * node); {@link #restart} starts them again. For crash tests. @return the PIDs killed
     */
    public static synchronized java.util.List<Long> kill(Component component, String... processes) {
        ensure(java.util.EnumSet.of(component));
        return stack.kill(component, processes);
    }

    /** Freezes some of a server's processes (SIGSTOP) until {@link #resume}: a server that hangs. @return the PIDs */
    public static synchronized java.util.List<Long> pause(Component component, String... processes) {
        ensure(java.util.EnumSet.of(component));
        return stack.pause(component, processes);
    }

    /** On the Redis Cluster: the ports of the master serving {@code key} now and of its replica (-1: none). */
    public static synchronized int[] redisClusterMasterAndReplicaOf(String key) {
        ensure(java.util.EnumSet.of(Component.REDIS_CLUSTER));
        return stack.redisClusterMasterAndReplicaOf(key);
    }

    /** On the Sentinel layout: the port of the data node the Sentinels name as the primary now. */
    public static synchronized int redisSentinelPrimaryPort() {
        ensure(java.util.EnumSet.of(Component.REDIS_SENTINEL));
        return stack.redisSentinelPrimaryPort();
    }

    /**
     * True when every process of the server runs and it answers as healthy. Unlike {@link #restart}, never starts or
     * restarts anything: for waiting until a server has settled after a failover it went through alive.
     */
    public static synchronized boolean healthy(Component component) {
        return stack.isUp(java.util.EnumSet.of(component));
    }

    /** Thaws what {@link #pause} froze. */
    public static synchronized java.util.List<Long> resume(Component component, String... processes) {
        return stack.resume(component, processes);
    }

    /** Starts whatever of the server is not running (after {@link #kill}) and waits until it is healthy. */
    public static synchronized void restart(Component component) {
        stack.up(java.util.EnumSet.of(component));
    }

    /** Endpoints of the stack, which must have been ensured (by {@link DevStackTest}) in this JVM. */
    public static synchronized Endpoints endpoints() {
        if (stack == null) {
            return ensure(Component.defaults());
        }
        return stack.endpoints();
    }

    /**
     * The Maven JVM that forked this test JVM (a Surefire/Failsafe fork), found by its launcher class among the
     * ancestors; outside Maven (an IDE), this JVM itself, so the stack lives as long as the test run.
     */
    static long buildPid() {
        Optional<ProcessHandle> p = ProcessHandle.current().parent();
        while (p.isPresent()) {
            if (commandLine(p.get().pid()).contains("org.codehaus.plexus.classworlds.launcher.Launcher")) {
                return p.get().pid();
            }
            p = p.get().parent();
        }
        return ProcessHandle.current().pid();
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8);
        } catch (Exception e) {
            return "";
        }
    }
}
