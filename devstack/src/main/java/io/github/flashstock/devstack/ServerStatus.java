package io.github.flashstock.devstack;

import java.util.List;

/**
 * What {@code status} reports for one server.
 *
 * @param component the server
 * @param ports     the ports it listens on
 * @param portsOnEveryInterface those of them it binds on every interface (it has no setting to narrow them); every
 *                  other port is bound to 127.0.0.1
 * @param pids      its live processes (empty when stopped)
 * @param healthy   whether it answered a real request just now
 * @param rssKiB    resident memory of its processes together
 */
public record ServerStatus(Component component, List<Integer> ports, List<Integer> portsOnEveryInterface,
                           List<Long> pids, boolean healthy, long rssKiB) {

    public boolean running() {
        return !pids.isEmpty();
    }
}
