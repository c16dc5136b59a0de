package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The local stack: brings servers up (idempotently), reports their status and stops exactly what it started.
 * Every operation holds a file lock under the home directory, so two JVMs (two Maven modules, or a test and
 * the CLI) never start or stop the same stack at the same time.
 */
public final class DevStack {

    private final DevStackConfig config;
    private final Map<Component, Server> servers = new EnumMap<>(Component.class);
    private final LoopbackFirewall firewall;

    public DevStack(DevStackConfig config) {
        this.config = config;
        this.firewall = new LoopbackFirewall(config);
        servers.put(Component.REDIS, new RedisServer(config));
        servers.put(Component.REDIS_CLUSTER, new RedisClusterServer(config));
        servers.put(Component.REDIS_SENTINEL, new RedisSentinelServer(config));
        servers.put(Component.MARIADB, new MariaDbServer(config));
        servers.put(Component.SEATA, new SeataServer(config));
        servers.put(Component.ROCKETMQ, new RocketMqServer(config));
        servers.put(Component.NACOS, new NacosServer(config));
    }

    public static DevStack fromEnvironment() {
        return new DevStack(DevStackConfig.fromEnvironment());
    }

    public DevStackConfig config() {
        return config;
    }

    public Endpoints endpoints() {
        return new Endpoints(config);
    }

    /** What one {@code up} did. */
    public record UpReport(Map<Component, Boolean> startedNow, Duration elapsed) {

        public boolean startedAny() {
            return startedNow.containsValue(true);
        }
    }

    /**
     * Makes sure the given servers run and answer. A server already up (its processes alive and ours, and
     * healthy) is left alone; one whose processes are partly gone is stopped and started again. Servers start
     * in parallel, except that a {@code db}-mode Seata TC waits for MariaDB and one that registers in Nacos for
     * Nacos.
     *
     * @throws IllegalStateException when a port is held by a foreign process (the message names it), or a
     *                               server does not become ready in time (the message names its log)
     */
    public UpReport up(Set<Component> components) {
        Instant begin = Instant.now();
        return withLock(() -> {
            Set<Component> wanted = EnumSet.copyOf(components);
            if (wanted.contains(Component.SEATA) && config.seataStore().equals("db")) {
                wanted.add(Component.MARIADB);
            }
            // a db-store TC needs MariaDB first; a TC that registers in Nacos waits for a Nacos this stack starts
            List<Component> seataNeeds = new ArrayList<>();
            if (config.seataStore().equals("db")) {
                seataNeeds.add(Component.MARIADB);
            }
            if (config.seataRegistry().equals("nacos") && wanted.contains(Component.NACOS)) {
                seataNeeds.add(Component.NACOS);
            }
            Map<Component, CompletableFuture<Boolean>> futures = new LinkedHashMap<>();
            for (Component c : wanted) {
                if (c != Component.SEATA) {
                    futures.put(c, CompletableFuture.supplyAsync(() -> ensureUp(c)));
                }
            }
            if (wanted.contains(Component.SEATA)) {
                CompletableFuture<?>[] before = seataNeeds.stream().map(futures::get).toArray(CompletableFuture[]::new);
                futures.put(Component.SEATA, CompletableFuture.allOf(before).thenApply(x -> ensureUp(Component.SEATA)));
            }
            Map<Component, Boolean> started = new EnumMap<>(Component.class);
            List<String> failures = new ArrayList<>();
            futures.forEach((c, f) -> {
                try {
                    started.put(c, f.join());
                } catch (CompletionException e) {
                    failures.add(c.cliName() + ": " + rootMessage(e));
                }
            });
            if (!failures.isEmpty()) {
                throw new IllegalStateException("devstack up failed:\n  " + String.join("\n  ", failures));
            }
            // the ports no setting keeps to 127.0.0.1: a packet filter does, where it can (LoopbackFirewall)
            firewall.guard(wanted.stream().flatMap(c -> servers.get(c).portsOnEveryInterface().stream()).toList());
            return new UpReport(started, Duration.between(begin, Instant.now()));
        });
    }

    /** @return true when the server had to be started */
    private boolean ensureUp(Component c) {
        Server server = servers.get(c);
        List<Long> live = server.livePids();
        if (live.size() == server.processCount()) {
            if (server.healthy() || becomesHealthy(server)) {
                return false;
            }
            // alive but not answering for the whole start timeout (an earlier start died half-way): start it afresh
            // below, which empties the servers that keep nothing (the Redis Cluster, the Sentinel layout): said so
            System.err.printf("devstack: %s runs but has not passed its health check for %d s: starting it afresh%n",
                    c.cliName(), config.startTimeout().toSeconds());
        }
        if (!live.isEmpty() && live.size() < server.processCount() && launchedMissing(c, server)) {
            // only some of its processes had died (a broker without its name server): the rest were left alone
            return true;
        }
        if (!live.isEmpty()) {
            Processes.stop(live, config.stopTimeout());
        }
        server.forgetPids();
        return launchAfresh(c, server);
    }

    /**
     * Whether a server whose processes all run passes its health check within the start timeout: one that is busy
     * (a cluster node rejoining after a restart, a replica syncing) or frozen for a moment (a drill's SIGSTOP) is
     * waited for, not started afresh, since starting the Redis Cluster or the Sentinel layout afresh empties it.
     */
    private boolean becomesHealthy(Server server) {
        try {
            Processes.await(server.name() + " to pass its health check", config.startTimeout(), server::healthy);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** @return false when the server cannot start only its missing processes */
    private boolean launchedMissing(Component c, Server server) {
        try {
            if (!server.launchMissing()) {
                return false;
            }
            server.awaitReady();
            return true;
        } catch (Exception e) {
            throw new IllegalStateException(c.cliName() + " did not come back: " + e.getMessage()
                    + " (logs in " + server.dir() + ")", e);
        }
    }

    private boolean launchAfresh(Component c, Server server) {
        List<Integer> busy = server.ports().stream().filter(p -> !Processes.isFree(p)).toList();
        if (!busy.isEmpty()) {
            String list = busy.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
            throw new IllegalStateException((busy.size() > 1 ? "ports " : "port ") + list + " needed by "
                    + c.cliName() + (busy.size() > 1 ? " are" : " is") + " held by another process;"
                    + " stop it or choose other ports (docs/devstack.md, \"Servers, ports and settings\")");
        }
        try {
            server.launch();
            server.awaitReady();
        } catch (Exception e) {
            // leave nothing half-started behind
            Processes.stop(server.livePids(), config.stopTimeout());
            server.forgetPids();
            throw new IllegalStateException(c.cliName() + " did not start: " + e.getMessage()
                    + " (logs in " + server.dir() + ")", e);
        }
        return true;
    }

    /**
     * Stops every server this stack started (any component whose PID files point at live processes of ours),
     * all at once, then checks that their ports are free. Processes of others are never touched.
     */
    public List<Component> down() {
        return withLock(() -> {
            List<Component> stopped = new ArrayList<>();
            List<Long> pids = new ArrayList<>();
            for (var e : servers.entrySet()) {
                List<Long> live = e.getValue().livePids();
                if (!live.isEmpty()) {
                    stopped.add(e.getKey());
                    pids.addAll(live);
                }
            }
            stopped.forEach(c -> servers.get(c).beforeStop());
            boolean graceful = Processes.stop(pids, config.stopTimeout());
            for (Component c : stopped) {
                Server server = servers.get(c);
                server.forgetPids();
                server.classDataEnded(graceful);
                Processes.await("the ports of " + c.cliName() + " to be released", config.stopTimeout(),
                        () -> server.ports().stream().noneMatch(Processes::accepts));
            }
            firewall.release();
            writeOwner(Optional.empty());
            return stopped;
        });
    }

    /**
     * The packet-filter rules this stack keeps (as {@code iptables -S} prints them), one per port that binds every
     * interface, while it is up and runs as root with iptables; none otherwise.
     */
    public List<String> firewallRules() {
        return firewall.rules();
    }

    /** Whether this stack keeps such rules here (root, iptables, {@code devstack.firewall} not off). */
    public boolean firewallAvailable() {
        return firewall.available();
    }

    /**
     * Stops one server (for tests of an outage); {@code up} starts it again. @return true when it was running
     */
    public boolean stop(Component component) {
        return withLock(() -> {
            Server server = servers.get(component);
            List<Long> live = server.livePids();
            if (live.isEmpty()) {
                return false;
            }
            server.beforeStop();
            server.classDataEnded(Processes.stop(live, config.stopTimeout()));
            server.forgetPids();
            Processes.await("the ports of " + component.cliName() + " to be released", config.stopTimeout(),
                    () -> server.ports().stream().noneMatch(Processes::accepts));
            return true;
        });
    }

    /**
     * Ends a server's processes at once with SIGKILL, as a crash would (no shutdown hook, no flush); {@code up}
     * starts them again. With process names ({@code broker}), only those. For drills.
     *
     * @return the PIDs killed
     */
    public List<Long> kill(Component component, String... processes) {
        return withLock(() -> {
            List<Long> pids = pids(servers.get(component), processes);
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
            }
            return pids;
        });
    }

    /**
     * The file the standalone Redis appends its writes to now: the newest incremental file its AOF manifest lists
     * (Redis 7 keeps the AOF as a base file plus incremental ones in {@code appendonlydir}). For drills that cut off
     * what a machine crash would have lost.
     */
    public java.nio.file.Path redisAppendFile() {
        java.nio.file.Path dir = config.dataDir(Component.REDIS.cliName()).resolve("appendonlydir");
        try {
            java.nio.file.Path manifest = dir.resolve("appendonly.aof.manifest");
            String newest = null;
            for (String line : java.nio.file.Files.readAllLines(manifest)) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 6 && f[0].equals("file") && f[4].equals("type") && f[5].equals("i")) {
                    newest = f[1];
                }
            }
            if (newest == null) {
                throw new IllegalStateException("no incremental AOF file in " + manifest);
            }
            return dir.resolve(newest);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the Redis AOF manifest in " + dir, e);
        }
    }

    /**
     * On the Redis Cluster: the port of the node serving {@code key}'s slot as master now, and of its replica (-1
     * when it has none). For drills that kill a slot's master.
     */
    public int[] redisClusterMasterAndReplicaOf(String key) {
        return ((RedisClusterServer) servers.get(Component.REDIS_CLUSTER)).masterAndReplicaOf(key);
    }

    /** On the Sentinel layout: the port of the data node the Sentinels name as the primary now. */
    public int redisSentinelPrimaryPort() {
        return ((RedisSentinelServer) servers.get(Component.REDIS_SENTINEL)).primaryPort();
    }

    /**
     * The process name of Seata TC {@code instance} (from 0), for {@link #kill} and {@link #pause} of one TC of
     * several.
     */
    public static String seataProcess(int instance) {
        return SeataServer.process(instance);
    }

    /** The role a Redis Cluster node reports now: {@code master}, {@code slave}, or empty when it does not answer. */
    public String redisClusterRole(int port) {
        return RedisClusterServer.role(port);
    }

    /**
     * One read on the Redis server at {@code port}, answered by that copy itself: a cluster replica answers too
     * ({@code READONLY} is sent first; a server outside a cluster refuses that and answers the read all the same).
     * For diagnosis: an error reply comes back as its text ({@code -ERR ...}), a server that does not answer as
     * {@code unreachable: ...}.
     */
    public Object readOnRedisNode(int port, String... command) {
        try {
            return Resp.pipeline(port, List.of(new String[] {"READONLY"}, command)).get(1);
        } catch (IOException | RuntimeException e) {
            return "unreachable: " + e;
        }
    }

    /**
     * One command on the standalone Redis, as an operator would send it with {@code redis-cli} ({@code CONFIG SET
     * maxmemory ...}); its reply, or a Redis error reply thrown as an {@link IllegalStateException}. For drills.
     */
    public Object onRedis(String... command) {
        try {
            return Resp.call(config.redisPort(), command);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("Redis on port " + config.redisPort() + " did not answer "
                    + command[0], e);
        }
    }

    /**
     * Makes the disk look full to the standalone Redis: its files may grow to {@code bytes} at most (the soft
     * RLIMIT_FSIZE of its process, set with {@code prlimit}; the devstack starts it with SIGXFSZ ignored), so a write
     * past that fails as on a full filesystem. Under {@code appendfsync everysec} Redis then refuses writes
     * ({@code MISCONF}) until a write succeeds again; under {@code always} it exits. {@link #liftFileSizeLimit}
     * undoes it. For drills.
     *
     * @return the PIDs limited
     */
    public List<Long> limitFileSize(long bytes) {
        return prlimit(Long.toString(bytes));
    }

    /** Lifts what {@link #limitFileSize} set: the soft limit back to unlimited. */
    public List<Long> liftFileSizeLimit() {
        return prlimit("unlimited");
    }

    private List<Long> prlimit(String soft) {
        return withLock(() -> {
            List<Long> pids = pids(servers.get(Component.REDIS));
            for (long pid : pids) {
                Processes.run(List.of("prlimit", "--pid", Long.toString(pid), "--fsize=" + soft + ":"),
                        config.home(), config.home().resolve("signals.log"), Optional.empty(), Duration.ofSeconds(10));
            }
            return pids;
        });
    }

    /**
     * Commands sent back to back on one connection to the Redis server at {@code port} (a Cluster node, say: {@code
     * ASKING} then a command on a slot being imported), their replies in order, an error reply as its text
     * ({@code -ERR ...}). For tests and drills that move slots as an operator does.
     */
    public List<Object> onRedisNode(int port, List<String[]> commands) {
        try {
            return Resp.pipeline(port, commands);
        } catch (IOException e) {
            throw new UncheckedIOException("Redis on port " + port + " did not answer", e);
        }
    }

    /**
     * Freezes a server's processes (SIGSTOP): ports stay open, nothing answers. With process names
     * ({@code node-16381}), only those. {@link #resume} thaws them.
     */
    public List<Long> pause(Component component, String... processes) {
        return signal(component, "STOP", processes);
    }

    /** Thaws what {@link #pause} froze (SIGCONT). */
    public List<Long> resume(Component component, String... processes) {
        return signal(component, "CONT", processes);
    }

    private List<Long> signal(Component component, String signal, String... processes) {
        if (signal.equals("CONT")) {
            // a thaw never waits for the lock: whoever holds it may be waiting for this very server to answer
            return send(component, signal, processes);
        }
        return withLock(() -> send(component, signal, processes));
    }

    private List<Long> send(Component component, String signal, String... processes) {
        List<Long> pids = pids(servers.get(component), processes);
        for (long pid : pids) {
            Processes.run(List.of("kill", "-" + signal, Long.toString(pid)), config.home(),
                    config.home().resolve("signals.log"), Optional.empty(), Duration.ofSeconds(10));
        }
        return pids;
    }

    /** The server's live processes, or those of them named. */
    private static List<Long> pids(Server server, String... processes) {
        return processes.length == 0 ? server.livePids()
                : java.util.Arrays.stream(processes)
                .map(name -> Processes.livePid(server.pidFile(name), server.marker()))
                .flatMap(Optional::stream).toList();
    }

    /** The status of every server, running or not. */
    public List<ServerStatus> status() {
        List<ServerStatus> result = new ArrayList<>();
        for (var e : servers.entrySet()) {
            Server s = e.getValue();
            List<Long> pids = s.livePids();
            boolean healthy = !pids.isEmpty() && s.healthy();
            long rss = pids.stream().mapToLong(DevStack::rssKiB).sum();
            result.add(new ServerStatus(e.getKey(), s.ports(), s.portsOnEveryInterface(), pids, healthy, rss));
        }
        return result;
    }

    /** True when every given component runs and answers. */
    public boolean isUp(Set<Component> components) {
        return components.stream().allMatch(c -> {
            Server s = servers.get(c);
            return s.livePids().size() == s.processCount() && s.healthy();
        });
    }

    // ---- ownership: who stops the stack ---------------------------------------------------------------

    /** Who owns the running stack: {@code cli} (stays up until {@code down}) or {@code build <pid>}. */
    public Optional<String> owner() {
        Path f = config.home().resolve("owner");
        try {
            return Files.isRegularFile(f) ? Optional.of(Files.readString(f).trim()) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Marks the stack as the developer's: nothing stops it but an explicit {@code down}. */
    public void claimForCli() {
        withLock(() -> {
            writeOwner(Optional.of("cli"));
            return null;
        });
    }

    /**
     * Hands the stack to a build: when process {@code pid} (the Maven JVM) exits, a detached watcher runs
     * {@code down}, unless someone has claimed the stack since. A stack owned by the CLI, or already by this
     * build, is left as it is.
     */
    public void claimForBuild(long pid) {
        withLock(() -> {
            Optional<String> current = owner();
            boolean ownerAlive = current.filter(o -> o.startsWith("build "))
                    .map(o -> Long.parseLong(o.substring(6)))
                    .flatMap(ProcessHandle::of).map(ProcessHandle::isAlive).orElse(false);
            if (current.filter("cli"::equals).isPresent() || ownerAlive) {
                return null;
            }
            writeOwner(Optional.of("build " + pid));
            startWatcher(pid);
            return null;
        });
    }

    private void startWatcher(long pid) {
        String codeSource;
        try {
            codeSource = Path.of(DevStack.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException("cannot locate the devstack classes for the watcher", e);
        }
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "tail --pid=\"$1\" -f /dev/null; shift; exec \"$@\"", "watcher", Long.toString(pid),
                Server.javaExecutable(), "-Xmx64m", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(config.asSystemProperties());
        cmd.addAll(List.of("-cp", codeSource, DevStackCli.class.getName(), "down", "--if-owner", "build " + pid));
        Processes.launch(cmd, config.home(), config.home().resolve("watcher.log"),
                config.home().resolve("watcher.pidinfo"), Map.of());
    }

    private void writeOwner(Optional<String> owner) {
        Path f = config.home().resolve("owner");
        try {
            if (owner.isPresent()) {
                Files.writeString(f, owner.get());
            } else {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------

    private static final Object JVM_LOCK = new Object();

    private <T> T withLock(Supplier<T> action) {
        synchronized (JVM_LOCK) {
            return withFileLock(action);
        }
    }

    private <T> T withFileLock(Supplier<T> action) {
        try {
            Files.createDirectories(config.home());
            try (FileChannel ch = FileChannel.open(config.home().resolve(".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                return action.get();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + config.home(), e);
        }
    }

    static long rssKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // process gone
        }
        return 0;
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && (c instanceof CompletionException || c.getMessage() == null)) {
            c = c.getCause();
        }
        return c.getMessage();
    }
}
