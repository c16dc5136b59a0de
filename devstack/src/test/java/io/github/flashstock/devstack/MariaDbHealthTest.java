package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The health check must answer even when the server cannot: a frozen MariaDB accepts connections and says nothing. */
class MariaDbHealthTest {

    @Test
    void aServerThatAcceptsAndNeverAnswersIsUnhealthyWithinSeconds() throws Exception {
        try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(frozen.accept()); // kept open, never written to: the handshake never comes
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Map<String, String> m = new HashMap<>();
            m.put("devstack.root", "/tmp/project");
            m.put("devstack.mariadb.port", Integer.toString(frozen.getLocalPort()));
            MariaDbServer server = new MariaDbServer(DevStackConfig.from(m));

            long start = System.nanoTime();
            Boolean healthy = CompletableFuture.supplyAsync(server::healthy).get(20, TimeUnit.SECONDS);

            assertThat(healthy).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
