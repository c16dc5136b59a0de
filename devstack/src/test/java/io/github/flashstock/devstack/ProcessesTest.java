package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /** Lines as a little-endian kernel writes them (x86-64, arm64): each 32-bit word of an address byte-swapped. */
    @Test
    void readsTheAddressOfEachListeningSocketOfTheProcess() {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the sample lines are a little-endian kernel's");
        Set<Long> ours = Set.of(111L, 222L, 333L, 444L, 555L, 666L);
        String rest = " 00000000:00000000 00:00000000 00000000  1000        0 ";

        assertThat(Processes.listener("   0: 0100007F:4E21 00000000:0000 0A" + rest + "111 1 0 100 0 0 10 0", ours))
                .contains(new InetSocketAddress("127.0.0.1", 0x4E21));
        assertThat(Processes.listener("   1: 00000000:46A3 00000000:0000 0A" + rest + "222 1 0 100 0 0 10 0", ours))
                .hasValueSatisfying(a -> assertThat(a.getAddress().isAnyLocalAddress()).isTrue());
        assertThat(Processes.listener("   2: 00000000000000000000000000000000:46A3 00000000000000000000000000000000:0000"
                + " 0A" + rest + "333 1 0 100 0 0 10 0", ours))
                .hasValueSatisfying(a -> assertThat(a.getAddress().isAnyLocalAddress()).isTrue());
        assertThat(Processes.listener("   3: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000"
                + " 0A" + rest + "444 1 0 100 0 0 10 0", ours))
                .hasValueSatisfying(a -> assertThat(a.getAddress().isLoopbackAddress()).as("::1").isTrue());
        assertThat(Processes.listener("   4: 0000000000000000FFFF00000100007F:1F91 00000000000000000000000000000000:0000"
                + " 0A" + rest + "555 1 0 100 0 0 10 0", ours))
                .as("::ffff:127.0.0.1, how Java binds 127.0.0.1 on a dual-stack socket")
                .contains(new InetSocketAddress("127.0.0.1", 0x1F91));
        assertThat(Processes.listener("   5: 0100007F:4E21 0100007F:A000 01" + rest + "666 1 0 100 0 0 10 0", ours))
                .as("a connection, not a listener").isEmpty();
        assertThat(Processes.listener("   6: 00000000:46A3 00000000:0000 0A" + rest + "999 1 0 100 0 0 10 0", ours))
                .as("another process's socket").isEmpty();
        assertThat(Processes.listener("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
                + "   uid  timeout inode", ours)).isEmpty();
    }

    @Test
    void findsTheSocketsThisProcessListensOnAndWhere() throws IOException {
        try (ServerSocket loopback = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket everywhere = new ServerSocket(0)) {
            List<InetSocketAddress> listening = Processes.listeners(ProcessHandle.current().pid());

            assertThat(listening).filteredOn(a -> a.getPort() == loopback.getLocalPort())
                    .singleElement().satisfies(a -> assertThat(a.getAddress().isLoopbackAddress()).isTrue());
            assertThat(listening).filteredOn(a -> a.getPort() == everywhere.getLocalPort())
                    .singleElement().satisfies(a -> assertThat(a.getAddress().isAnyLocalAddress()).isTrue());
        }
    }
}
