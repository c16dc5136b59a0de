package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The CLI's contract on a second, private stack (its own home and free ports, so the shared stack of the
 * other tests is never touched): {@code up} twice starts once, every port is bound to 127.0.0.1 but those a server
 * cannot narrow, {@code down} once leaves no process and no open port behind; a port held by someone else is a
 * clear error naming it.
 */
class DevStackLifecycleIT {

    private static final Path HOME = Path.of("target", "devstack-lifecycle-it").toAbsolutePath();

    @Test
    void upTwiceThenDownOnceLeavesNoProcessAndNoOpenPort() {
        // Given a stack of its own on free ports
        DevStack stack = new DevStack(DevStackConfig.from(privateStack(HOME.resolve("full"))));
        Set<Component> all = EnumSet.allOf(Component.class);

        try {
            // When it is brought up twice
            DevStack.UpReport first = stack.up(all);
            List<ServerStatus> afterFirst = stack.status();
            DevStack.UpReport second = stack.up(all);
            List<ServerStatus> afterSecond = stack.status();

            // Then the first start started everything, the second nothing, and the same processes serve
            assertThat(first.startedNow()).containsOnlyKeys(all).doesNotContainValue(false);
            assertThat(second.startedNow()).containsOnlyKeys(all).doesNotContainValue(true);
            assertThat(afterFirst).allSatisfy(s -> assertThat(s.healthy()).as("%s healthy", s.component()).isTrue());
            assertThat(pids(afterSecond)).isEqualTo(pids(afterFirst));
            // Redis, the Cluster's six nodes, the Sentinel layout's two nodes and three Sentinels, MariaDB, the TC,
            // RocketMQ's name server and broker, Nacos
            assertThat(pids(afterFirst)).hasSize(1 + 6 + 5 + 1 + 1 + 2 + 1);

            // And every port its processes listen on is bound to 127.0.0.1, but the few their servers cannot narrow
            assertThat(afterFirst).allSatisfy(s -> {
                List<InetSocketAddress> listening = s.pids().stream()
                        .flatMap(pid -> Processes.listeners(pid).stream()).toList();
                assertThat(listening).as("%s listens on its ports", s.component())
                        .extracting(InetSocketAddress::getPort).containsAll(s.ports());
                assertThat(listening.stream().filter(a -> !a.getAddress().isLoopbackAddress())
                        .map(InetSocketAddress::getPort).distinct().sorted().toList())
                        .as("%s: ports beyond 127.0.0.1 (it listens on %s)", s.component(), listening)
                        .isEqualTo(s.portsOnEveryInterface().stream().sorted().toList());
            });

            // And where the stack can keep a packet filter (root, iptables), each of those few ports has its rule,
            // dropping connections not addressed to loopback; twice up, still one rule per port
            if (stack.firewallAvailable()) {
                List<Integer> wide = afterFirst.stream().flatMap(s -> s.portsOnEveryInterface().stream()).sorted()
                        .toList();
                assertThat(stack.firewallRules()).hasSize(wide.size()).allSatisfy(rule ->
                        assertThat(rule).contains("! -d 127.0.0.0/8", "-j DROP", HOME.toString()));
                assertThat(stack.firewallRules().stream().map(r -> Integer.parseInt(
                        r.replaceAll(".*--dport (\\d+).*", "$1"))).sorted().toList()).isEqualTo(wide);
            }

            // When the broker alone is killed and the stack brought up again
            List<Long> rocketmq = pidsOf(stack, Component.ROCKETMQ);
            List<Long> broker = stack.kill(Component.ROCKETMQ, "broker");
            assertThat(broker).hasSize(1);
            long namesrv = rocketmq.stream().filter(p -> !broker.contains(p)).findFirst().orElseThrow();
            DevStack.UpReport third = stack.up(EnumSet.of(Component.ROCKETMQ));

            // Then only the broker started again: the name server is the same process, and RocketMQ answers
            assertThat(third.startedNow()).containsEntry(Component.ROCKETMQ, true);
            assertThat(pidsOf(stack, Component.ROCKETMQ)).hasSize(2).contains(namesrv).doesNotContainAnyElementsOf(broker);
            assertThat(stack.isUp(EnumSet.of(Component.ROCKETMQ))).isTrue();

            // And a paused server stops answering until it is resumed
            assertThat(stack.pause(Component.REDIS)).hasSize(1);
            try {
                assertThat(stack.isUp(EnumSet.of(Component.REDIS))).as("paused Redis answers").isFalse();
            } finally {
                stack.resume(Component.REDIS);
            }
            assertThat(stack.isUp(EnumSet.of(Component.REDIS))).as("resumed Redis answers").isTrue();
        } finally {
            List<ServerStatus> before = stack.status();
            List<Long> pids = pids(before);
            List<Integer> ports = before.stream().flatMap(s -> s.ports().stream()).toList();
            // a server that died on its own during the test says why in its log; keep that for the message
            String died = deadServers(stack, before);

            // When it is brought down once
            List<Component> stopped = stack.down();

            // Then every process is gone and every port is free
            assertThat(stopped).as("servers that had died before down:%s", died)
                    .containsExactlyInAnyOrderElementsOf(EnumSet.allOf(Component.class));
            assertThat(pids).allSatisfy(pid ->
                    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                            .as("process %d alive", pid).isFalse());
            assertThat(ports).allSatisfy(port ->
                    assertThat(Processes.accepts(port)).as("port %d open", port).isFalse());
            assertThat(stack.status()).allSatisfy(s -> assertThat(s.running()).isFalse());
            // and the stack's packet-filter rules are gone with it
            assertThat(stack.firewallRules()).isEmpty();
        }
    }

    @Test
    void refusesToStartOnAPortHeldByAnotherProcessAndNamesIt() throws IOException {
        Map<String, String> settings = privateStack(HOME.resolve("busy"));
        int port = Integer.parseInt(settings.get("devstack.redis.port"));
        DevStack stack = new DevStack(DevStackConfig.from(settings));

        try (ServerSocket foreign = new ServerSocket()) {
            foreign.bind(new InetSocketAddress("127.0.0.1", port));

            assertThatThrownBy(() -> stack.up(EnumSet.of(Component.REDIS)))
                    .hasMessageContaining("port " + port)
                    .hasMessageContaining("held by another process");
            assertThat(stack.status()).allSatisfy(s -> assertThat(s.running()).isFalse());
        }
    }

    @Test
    void downWithNothingRunningStopsNothing() {
        DevStack stack = new DevStack(DevStackConfig.from(privateStack(HOME.resolve("empty"))));
        assertThat(stack.down()).isEmpty();
    }

    /** For each server not running: its name, the free disk space of the stack's home and the tail of its logs. */
    private static String deadServers(DevStack stack, List<ServerStatus> status) {
        StringBuilder report = new StringBuilder();
        for (ServerStatus s : status) {
            if (s.running()) {
                continue;
            }
            Path dir = stack.config().dataDir(s.component().cliName());
            report.append("\n").append(s.component()).append(" (").append(dir.toFile().getUsableSpace() >> 20)
                    .append(" MiB free on its disk)");
            try (var logs = java.nio.file.Files.list(dir)) {
                for (Path log : logs.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                    List<String> lines = java.nio.file.Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
                    report.append("\n--- ").append(log.getFileName()).append(", last lines:\n")
                            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
                }
            } catch (IOException e) {
                report.append(": logs not readable: ").append(e);
            }
        }
        return report.isEmpty() ? " none" : report.toString();
    }

    private static List<Long> pidsOf(DevStack stack, Component component) {
        return stack.status().stream().filter(s -> s.component() == component).findFirst().orElseThrow().pids();
    }

    private static List<Long> pids(List<ServerStatus> status) {
        List<Long> pids = new ArrayList<>();
        status.forEach(s -> pids.addAll(s.pids()));
        return pids.stream().sorted().toList();
    }

    /** Settings for a stack in {@code home} whose every port is free right now. */
    private static Map<String, String> privateStack(Path home) {
        FreePorts free = new FreePorts();
        Map<String, String> s = new HashMap<>();
        s.put("devstack.root", System.getProperty("devstack.root", Path.of("..").toAbsolutePath().normalize().toString()));
        s.put("devstack.home", home.toString());
        s.put("devstack.redis.port", Integer.toString(free.block(1, 0)));
        s.put("devstack.redis-cluster.base-port", Integer.toString(free.block(6, 10000)));
        s.put("devstack.redis-sentinel.base-port", Integer.toString(free.block(5, 0)));
        s.put("devstack.mariadb.port", Integer.toString(free.block(1, 0)));
        s.put("devstack.seata.port", Integer.toString(free.block(1, 0)));
        s.put("devstack.seata.console-port", Integer.toString(free.block(1, 0)));
        s.put("devstack.rocketmq.namesrv-port", Integer.toString(free.block(1, 0)));
        // the broker also takes port - 2 and port + 1
        s.put("devstack.rocketmq.broker-port", Integer.toString(free.block(4, 0) + 2));
        s.put("devstack.nacos.port", Integer.toString(free.nacos()));
        s.put("devstack.stop-timeout-seconds", "30");
        return s;
    }

    /** Finds runs of consecutive free ports (Nacos: a main port whose derived ports are free too) (and, for cluster nodes, their bus ports), never handing one out twice. */
    private static final class FreePorts {
        private final Set<Integer> taken = new HashSet<>();
        // below Linux's ephemeral range (32768 up, by default), cluster bus ports (+ 10000) included: a port picked
        // there can be taken, between the pick and the server's bind, as the local port of some process's outgoing
        // connection
        private int next = 20000 + (int) (ProcessHandle.current().pid() % 2000);

        /** A Nacos main port P with P - 1000, P + 1000 and P + 1001 free as well. */
        int nacos() {
            for (int p = next + 2000; ; p += 7) {
                List<Integer> ports = List.of(p - 1000, p, p + 1000, p + 1001);
                if (ports.stream().noneMatch(taken::contains) && ports.stream().allMatch(Processes::isFree)) {
                    taken.addAll(ports);
                    return p;
                }
            }
        }

        int block(int count, int busOffset) {
            while (true) {
                int start = next;
                next += count + 1;
                boolean ok = true;
                for (int p = start; p < start + count && ok; p++) {
                    ok = !taken.contains(p) && Processes.isFree(p) && (busOffset == 0 || Processes.isFree(p + busOffset));
                }
                if (ok) {
                    for (int p = start; p < start + count; p++) {
                        taken.add(p);
                    }
                    return start;
                }
            }
        }
    }
}
