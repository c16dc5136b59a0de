package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** Launching, recognising and stopping server processes; port checks. Linux only (reads {@code /proc}). */
final class Processes {

    private Processes() {
    }

    /**
     * Starts a command in a session of its own (so a Ctrl-C in the shell that ran the build does not reach it),
     * with stdin from /dev/null and stdout/stderr appended to {@code log}, and records its PID in {@code pidFile}.
     */
    static long launch(List<String> command, Path workDir, Path log, Path pidFile, Map<String, String> env) {
        List<String> full = new ArrayList<>();
        full.add("setsid");
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true);
        pb.environment().putAll(env);
        try {
            Files.createDirectories(pidFile.getParent());
            Process process = pb.start();
            // setsid execs in place when its caller is not a group leader, which a freshly spawned child never is.
            long pid = process.pid();
            Files.writeString(pidFile, Long.toString(pid));
            return pid;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    /** Runs a short command to completion; its output goes to {@code log}. Throws when it exits non-zero. */
    static void run(List<String> command, Path workDir, Path log, Optional<Path> stdin, Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true);
        pb.redirectInput(stdin.map(p -> ProcessBuilder.Redirect.from(p.toFile()))
                .orElse(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())));
        try {
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeout
                        + "; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + p.exitValue()
                        + "; see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }

    /** The PID recorded in {@code pidFile}, if the file exists and that process is alive and ours. */
    static Optional<Long> livePid(Path pidFile, String marker) {
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return isOurs(pid, marker) ? Optional.of(pid) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** True when the process the PID file names is alive (no check of whose it is: see {@link #isOurs}). */
    static boolean alive(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent();
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /**
     * True when {@code pid} is alive and its command line mentions {@code marker} (the stack's home directory),
     * so a PID reused by an unrelated process is never taken for one of ours.
     */
    static boolean isOurs(long pid, String marker) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent()
                && commandLine(pid).contains(marker);
    }

    static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Sends SIGTERM to each process, waits for all of them together, then SIGKILLs whatever is left.
     *
     * @return true when every one ended by itself, none needed the SIGKILL
     */
    static boolean stop(List<Long> pids, Duration timeout) {
        List<ProcessHandle> handles = pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
        handles.forEach(ProcessHandle::destroy);
        Instant deadline = Instant.now().plus(timeout);
        boolean graceful = true;
        for (ProcessHandle h : handles) {
            long left = Math.max(0, Duration.between(Instant.now(), deadline).toMillis());
            try {
                h.onExit().get(left, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception timedOut) {
                h.destroyForcibly();
                graceful = false;
            }
        }
        for (ProcessHandle h : handles) {
            try {
                h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("process " + h.pid() + " did not exit after SIGKILL", e);
            }
        }
        return graceful;
    }

    /** True when nothing listens on 127.0.0.1:port and the port can be bound on every interface. */
    static boolean isFree(int port) {
        if (accepts(port)) {
            return false;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Polls {@code check} until it holds, failing with {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier check) {
        Instant deadline = Instant.now().plus(timeout);
        long pause = 50;
        while (!check.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
            pause = Math.min(500, pause * 2);
        }
    }

    /** The pid files of a server directory, one per process. */
    static List<Path> pidFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".pid")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
