package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Launching, recognising and stopping server processes; port checks. Linux only (reads {@code /proc}). */
final class Processes {

    private static final Pattern SOCKET_LINK = Pattern.compile("socket:\\[(\\d+)]");
    /** TCP_LISTEN in the kernel's {@code st} column of {@code /proc/net/tcp}. */
    private static final String LISTEN = "0A";

    private Processes() {
    }

    /**
     * The command run with SIGXFSZ ignored (a shell sets it, then execs the command in its place, keeping its PID),
     * so that a write past the process's file-size limit fails with EFBIG instead of killing it: how the devstack
     * makes a disk look full to one server ({@link DevStack#limitFileSize}) without a filesystem of its own.
     */
    static List<String> ignoringFileSizeLimit(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "trap '' XFSZ; exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
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

    /**
     * Every TCP address the process listens on, IPv4 and IPv6: its sockets (the {@code socket:[inode]} links under
     * {@code /proc/<pid>/fd}) that {@code /proc/<pid>/net/tcp} and {@code tcp6} list in state LISTEN. Empty for a
     * process that is gone or not ours to read.
     */
    static List<InetSocketAddress> listeners(long pid) {
        Set<Long> sockets = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Matcher socket = SOCKET_LINK.matcher(Files.readSymbolicLink(fd).toString());
                    if (socket.matches()) {
                        sockets.add(Long.parseLong(socket.group(1)));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while the folder was read
                }
            }
        } catch (IOException | UncheckedIOException gone) {
            return List.of();
        }
        List<InetSocketAddress> listening = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "net", table))) {
                    listener(line, sockets).ifPresent(listening::add);
                }
            } catch (IOException noSuchTable) {
                // IPv6 switched off on this host
            }
        }
        return listening;
    }

    /**
     * The local address of a line of {@code /proc/net/tcp} or {@code tcp6} when it is a listening socket among
     * {@code sockets} (by inode). Fields: {@code sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout
     * inode ...}; an address is hex, each 32-bit word in the host's byte order, and the port is hex.
     */
    static Optional<InetSocketAddress> listener(String line, Set<Long> sockets) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length < 10 || !fields[0].endsWith(":") || !fields[3].equals(LISTEN)
                || !sockets.contains(Long.parseLong(fields[9]))) {
            return Optional.empty();
        }
        String[] local = fields[1].split(":");
        byte[] address = new byte[local[0].length() / 2];
        ByteBuffer words = ByteBuffer.wrap(address).order(ByteOrder.nativeOrder());
        for (int i = 0; i < local[0].length(); i += 8) {
            words.putInt((int) Long.parseLong(local[0].substring(i, i + 8), 16));
        }
        int port = Integer.parseInt(local[1], 16);
        try {
            return Optional.of(new InetSocketAddress(InetAddress.getByAddress(address), port));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("not an address: " + local[0], e);
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
