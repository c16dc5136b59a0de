package io.github.flashstock.support.web;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import org.springframework.core.env.Environment;

/**
 * Whether a {@code host:port} addresses this process's HTTP server: its port, on an address of this machine (a
 * registry may list the machine's own address where the server calls itself 127.0.0.1).
 */
public final class LocalAddresses {

    private final Environment environment;

    public LocalAddresses(Environment environment) {
        this.environment = environment;
    }

    /** The port the server listens on (the actual one when it was chosen at random). */
    public String port() {
        return environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
    }

    public boolean isThisServer(String address) {
        int colon = address == null ? -1 : address.lastIndexOf(':');
        if (colon < 1 || !address.substring(colon + 1).equals(port())) {
            return false;
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            InetAddress resolved = InetAddress.getByName(host);
            return resolved.isLoopbackAddress() || resolved.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(resolved) != null;
        } catch (IOException e) {
            return false;
        }
    }
}
