package io.github.flashstock.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Raised at start when a Nacos address is configured but no server behind it accepts a connection. A service that
 * started anyway would run on the packaged configuration, which need not be what operators published (segment
 * counts, limits), and could not register for discovery; so it refuses to start and says what to do instead.
 */
public class NacosUnreachable extends IllegalStateException {

    NacosUnreachable(String serverAddr, List<String> tried) {
        super("Nacos is configured (" + serverAddr + ") but cannot be reached (tried " + String.join(", ", tried)
                + "). Start Nacos or correct NACOS_SERVER_ADDR / spring.cloud.nacos.server-addr; or unset both to run"
                + " on the configuration files packaged in the jar (or FLASHSTOCK_CONFIG_SOURCE=file:/dir/).");
    }

    /**
     * Throws unless at least one of the comma-separated addresses ({@code host:port}, {@code host} for port 8848,
     * optionally with {@code http://} or {@code https://} and a path) accepts a TCP connection within {@code timeout}.
     */
    static void check(String serverAddr, Duration timeout) {
        List<String> tried = new ArrayList<>();
        for (String entry : serverAddr.split(",")) {
            String hostPort = entry.trim().replaceFirst("^https?://", "");
            int slash = hostPort.indexOf('/');
            if (slash >= 0) {
                hostPort = hostPort.substring(0, slash);
            }
            if (hostPort.isEmpty()) {
                continue;
            }
            int colon = hostPort.lastIndexOf(':');
            String host = colon > 0 ? hostPort.substring(0, colon) : hostPort;
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : 8848;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a Nacos address (host:port): " + entry.trim(), e);
            }
            tried.add(host + ":" + port);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
                return;
            } catch (IOException e) {
                // try the next one
            }
        }
        throw new NacosUnreachable(serverAddr, tried);
    }
}
