package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One server of the stack (which may be several processes, e.g. a name server and a broker). Each keeps its
 * data, logs and one {@code <process>.pid} file per process under {@code <home>/<name>/}.
 */
abstract class Server {

    protected final DevStackConfig config;

    Server(DevStackConfig config) {
        this.config = config;
    }

    /** Short name; also the name of the server's directory under the devstack home. */
    abstract String name();

    /** Every port the server listens on. All must be free before it starts. */
    abstract List<Integer> ports();

    /**
     * The ports among {@link #ports()} that the server binds on every interface because it has no setting that
     * narrows them (each server says why). Every other port it opens is bound to 127.0.0.1; DevStackLifecycleIT
     * reads the listening sockets of every process and holds both.
     */
    List<Integer> portsOnEveryInterface() {
        return List.of();
    }

    /** How many processes make up the server when it runs. */
    int processCount() {
        return 1;
    }

    /** Launches the server's processes; they are known not to be running and their ports to be free. */
    abstract void launch() throws Exception;

    /**
     * Some, not all, of the server's processes are alive: launches only the missing ones, if this server can run
     * them separately. @return false when it cannot (then the whole server is stopped and started again)
     */
    boolean launchMissing() throws Exception {
        return false;
    }

    /** Waits until the server answers a real request (never a fixed sleep). */
    abstract void awaitReady() throws Exception;

    /** One quick real request: PING, SELECT 1, a console login, a topic route. */
    abstract boolean healthy();

    /**
     * Called while the server still runs, just before this stack stops it: undoes what the server's start left
     * outside its own processes (a registration in Nacos). Best effort; a stop goes on whatever happens here.
     */
    void beforeStop() {
    }

    final Path dir() {
        return config.dataDir(name());
    }

    final Path pidFile(String process) {
        return dir().resolve(process + ".pid");
    }

    final Path log(String process) {
        return dir().resolve(process + ".log");
    }

    /** Marker found on the command line of every process this stack starts: its home directory. */
    final String marker() {
        return config.home().toString();
    }

    /** PIDs of this server's processes that are alive and ours. */
    final List<Long> livePids() {
        return Processes.pidFiles(dir()).stream()
                .map(f -> Processes.livePid(f, marker()))
                .flatMap(Optional::stream)
                .toList();
    }

    /**
     * True while a process this server's PID files name is alive, whatever its command line says yet. For the first
     * moments after a launch only: until the child has exec'd the server (it passes through the JVM's spawn helper
     * and {@code setsid} first) its command line does not carry the {@link #marker()}, so {@link #livePids()} would
     * call a server that is still starting gone.
     */
    final boolean launchedAlive() {
        return Processes.pidFiles(dir()).stream().anyMatch(Processes::alive);
    }

    /** Removes the PID files (after a stop, or when they point at processes that are gone). */
    final void forgetPids() {
        for (Path f : Processes.pidFiles(dir())) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Removes the server's directory and everything in it: for servers that start afresh at every cold start. */
    final void wipeDir() {
        if (!Files.exists(dir())) {
            return;
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dir())) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    final Path ensureDir(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    final void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of this server's JVM processes (their PID files' names), for their class-data archives. */
    List<String> javaProcesses() {
        return List.of();
    }

    /**
     * JVM options that start one of this server's Java processes from its {@link ClassDataArchive}, or write one at
     * its exit. The archives live in {@code <root>/devstack/target/class-data}, shared by every devstack home of the
     * checkout and gone with {@code mvn clean}.
     */
    final List<String> classData(String process) {
        return archive(process).options(launchKey());
    }

    /** After a stop: the archives this server's processes wrote at a graceful exit are published, else dropped. */
    final void classDataEnded(boolean graceful) {
        for (String process : javaProcesses()) {
            archive(process).ended(launchKey(), graceful);
        }
    }

    private ClassDataArchive archive(String process) {
        return new ClassDataArchive(config.root().resolve("devstack/target/class-data")
                .resolve(name() + "-" + process + ".jsa"));
    }

    /** One launch of a server per devstack home at a time: the home tells launches apart. */
    private String launchKey() {
        return Integer.toHexString(marker().hashCode());
    }

    /** The JVM that runs the devstack also runs the Java servers. */
    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static List<String> jvmOptions(String key, String defaults) {
        return DevStackConfig.jvmOptions(key, defaults);
    }
}
