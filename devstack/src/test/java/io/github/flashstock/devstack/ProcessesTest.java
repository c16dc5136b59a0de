package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesTest {

    /**
     * A launched server passes through the JVM's spawn helper and {@code setsid} before it execs, and until then its
     * command line lacks the stack's marker: a start-up check that asked "is it ours?" took it for gone (CI saw
     * "the Nacos server exited" 30 ms after the launch, with an empty log). Here the child shows the marker only
     * after a second, when it execs; before that it must count as alive, though not yet as ours.
     */
    @Test
    void aJustLaunchedProcessIsAliveBeforeItsCommandLineShowsTheMarker(@TempDir Path dir) throws Exception {
        String marker = "devstack-test-marker-" + ProcessHandle.current().pid();
        Path pidFile = dir.resolve("child.pid");
        long pid = Processes.launch(List.of("sh", "-c", "sleep 1; exec sh -c 'sleep 30; true' \"$MARK\""), dir,
                dir.resolve("child.log"), pidFile, Map.of("MARK", marker));
        try {
            assertThat(Processes.alive(pidFile)).as("alive right after the launch").isTrue();
            assertThat(Processes.isOurs(pid, marker)).as("its command line has no marker yet").isFalse();

            Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
            while (!Processes.isOurs(pid, marker) && Instant.now().isBefore(deadline)) {
                Thread.sleep(50);
            }
            assertThat(Processes.isOurs(pid, marker)).as("ours once it has exec'd").isTrue();
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Processes.alive(pidFile) && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        assertThat(Processes.alive(pidFile)).as("gone once killed").isFalse();
        assertThat(Files.exists(pidFile)).isTrue();
    }
}
