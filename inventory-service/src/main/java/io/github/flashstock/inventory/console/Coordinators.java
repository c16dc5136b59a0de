package io.github.flashstock.inventory.console;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.apache.seata.discovery.registry.RegistryFactory;
import org.apache.seata.discovery.registry.RegistryService;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The Seata TCs this instance's transaction group maps to, as Seata's own registry lists them (the grouplist in
 * {@code file} mode, the instances of {@code seata-server} in Nacos mode), each probed with a TCP connection.
 */
@Component
class Coordinators {

    private static final int PROBE_TIMEOUT_MILLIS = 300;

    private final String group;

    Coordinators(@Value("${seata.tx-service-group}") String group) {
        this.group = group;
    }

    List<InstanceReading.Coordinator> probe() {
        List<InetSocketAddress> listed;
        try {
            RegistryService<?> registry = RegistryFactory.getInstance();
            listed = registry.lookup(group);
        } catch (Exception e) {
            return List.of(new InstanceReading.Coordinator("(the registry could not be read: " + e.getMessage() + ")",
                    false));
        }
        List<InstanceReading.Coordinator> found = new ArrayList<>();
        for (InetSocketAddress tc : listed == null ? List.<InetSocketAddress>of() : listed) {
            found.add(new InstanceReading.Coordinator(tc.getHostString() + ":" + tc.getPort(), reachable(tc)));
        }
        return found;
    }

    private static boolean reachable(InetSocketAddress tc) {
        try (Socket socket = new Socket()) {
            socket.connect(tc, PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
