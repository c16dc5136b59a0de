package io.github.flashstock.sale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports for the services a test starts: free on 127.0.0.1 when asked, and never one this test JVM handed out
 * before. Asking the kernel for port 0 twice in a row can return the same port while neither is bound yet, and two
 * services then race for it (one fails "Port ... was already in use").
 */
final class FreePorts {

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    static int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port this JVM has not handed out already, in 100 tries");
    }
}
