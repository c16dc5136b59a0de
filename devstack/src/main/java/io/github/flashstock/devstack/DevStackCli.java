package io.github.flashstock.devstack;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code devstack up [--with-cluster] [--with-sentinel] [--only redis,mariadb,...] | status | down}. Settings come from system
 * properties or environment variables (see {@link DevStackConfig}). Exit code 0 on success, 1 on failure with
 * the reason on stderr, 2 on a usage error.
 */
public final class DevStackCli {

    private DevStackCli() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (RuntimeException e) {
            System.err.println("devstack: " + e.getMessage());
            System.exit(1);
        }
    }

    static int run(String[] args) {
        if (args.length == 0) {
            return usage();
        }
        DevStack stack = DevStack.fromEnvironment();
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "up" -> {
                Set<Component> components = Component.defaults();
                for (int i = 0; i < rest.size(); i++) {
                    switch (rest.get(i)) {
                        case "--with-cluster" -> components.add(Component.REDIS_CLUSTER);
                        case "--with-sentinel" -> components.add(Component.REDIS_SENTINEL);
                        case "--only" -> {
                            if (i + 1 >= rest.size()) {
                                return usage();
                            }
                            components = Arrays.stream(rest.get(++i).split(",")).map(Component::parse)
                                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Component.class)));
                        }
                        default -> {
                            return usage();
                        }
                    }
                }
                DevStack.UpReport report = stack.up(components);
                stack.claimForCli();
                report.startedNow().forEach((c, started) ->
                        System.out.printf("%-14s %s%n", c.cliName(), started ? "started" : "already up"));
                System.out.printf("ready in %.1f s%n", report.elapsed().toMillis() / 1000.0);
                printStatus(stack);
                return 0;
            }
            case "status" -> {
                printStatus(stack);
                return 0;
            }
            case "down" -> {
                if (rest.size() == 2 && rest.get(0).equals("--if-owner")
                        && !stack.owner().map(rest.get(1)::equals).orElse(false)) {
                    System.out.println("stack no longer owned by " + rest.get(1) + "; left running");
                    return 0;
                }
                List<Component> stopped = stack.down();
                System.out.println(stopped.isEmpty() ? "nothing was running"
                        : "stopped " + stopped.stream().map(Component::cliName).collect(Collectors.joining(", ")));
                return 0;
            }
            default -> {
                return usage();
            }
        }
    }

    private static void printStatus(DevStack stack) {
        System.out.printf("%-14s %-28s %-16s %-9s %8s%n", "SERVER", "PORTS", "PID", "HEALTH", "RSS MiB");
        long total = 0;
        for (ServerStatus s : stack.status()) {
            total += s.rssKiB();
            String ports = s.ports().stream().map(p -> s.portsOnEveryInterface().contains(p) ? p + "*" : "" + p)
                    .collect(Collectors.joining(","));
            String pids = s.pids().isEmpty() ? "-" : s.pids().stream().map(String::valueOf)
                    .collect(Collectors.joining(","));
            String health = !s.running() ? "stopped" : s.healthy() ? "up" : "UNHEALTHY";
            System.out.printf("%-14s %-28s %-16s %-9s %8s%n", s.component().cliName(), ports,
                    pids.length() > 16 ? pids.substring(0, 13) + "..." : pids, health,
                    s.running() ? String.format("%.0f", s.rssKiB() / 1024.0) : "-");
        }
        System.out.printf("total RSS: %.0f MiB   home: %s%n", total / 1024.0, stack.config().home());
        System.out.println("every port on 127.0.0.1 but those marked *: the server binds them on every interface"
                + " and has no setting to narrow them (docs/devstack.md)");
        Endpoints e = stack.endpoints();
        System.out.printf("redis %s:%d | mysql %s (users inventory/orders/seata, password %s) | seata %s, console %s"
                        + " (%s/%s) | rocketmq namesrv %s | nacos %s%s%n", e.redisHost(), e.redisPort(),
                e.jdbcUrl("<db>"), e.dbPassword(), e.seataAddress(), e.seataConsoleUrl(),
                DevStackConfig.SEATA_CONSOLE_USER, DevStackConfig.SEATA_CONSOLE_PASSWORD, e.namesrvAddress(),
                e.nacosAddress(), e.nacosAuth() ? " (auth on: " + e.nacosUsername() + "/" + e.nacosPassword() + ")"
                        : " (auth off)");
    }

    private static int usage() {
        System.err.println("usage: devstack up [--with-cluster] [--with-sentinel] [--only redis,redis-cluster,"
                + "redis-sentinel,mariadb,seata,rocketmq,nacos] | status | down");
        return 2;
    }
}
