package io.github.flashstock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Java Flight Recordings of the processes taking part in one path's runs ({@code -Dbench.profile=COMMIT}): started
 * with {@code jcmd <pid> JFR.start} (settings {@code profile}: method samples every 10-20 ms, allocations, locks)
 * right before each run of that path and stopped, to a file per process and round, right after it. No JVM needs a
 * flag at start, so the run measured is the run recorded. Read them with {@code jfr view hot-methods <file>} (JDK 21+)
 * or JDK Mission Control.
 */
final class Recordings {

    private static final String NAME = "bench-order";

    private final Path dir;
    private final Map<String, List<Long>> jvms;
    private final String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();

    Recordings(Path dir, Map<String, List<Long>> jvms) {
        this.dir = dir;
        this.jvms = jvms;
    }

    void start() {
        jvms.forEach((name, pids) -> pids.forEach(pid -> jcmd(pid, "JFR.start", "name=" + NAME, "settings=profile")));
    }

    /** Stops every recording into {@code <dir>/<process>-<label>.jfr}; returns the files written. */
    List<Path> stop(String label) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        jvms.forEach((name, pids) -> {
            for (int i = 0; i < pids.size(); i++) {
                Path file = dir.resolve(name.replace(' ', '-') + (pids.size() > 1 ? "-" + i : "") + "-" + label
                        + ".jfr");
                if (jcmd(pids.get(i), "JFR.stop", "name=" + NAME, "filename=" + file)) {
                    files.add(file);
                }
            }
        });
        return files;
    }

    private boolean jcmd(long pid, String... command) {
        List<String> cmd = new ArrayList<>(List.of(jcmd, Long.toString(pid)));
        cmd.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
