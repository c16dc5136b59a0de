package io.github.flashstock.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the ports a server binds on every interface ({@link Server#portsOnEveryInterface()}: the Seata TC's RPC port,
 * Nacos's JRaft port, the RocketMQ broker's HA port) to loopback all the same: a packet-filter rule per port and
 * address family drops every TCP connection to it that is not addressed to the loopback range. The rules carry a
 * comment naming this stack's home, so that {@code up} adds each once and {@code down} removes exactly this stack's
 * rules, never another's. Applies when {@code devstack.firewall} is {@code auto} (the default) and the stack runs as
 * root with {@code iptables} on the path ({@code bin/setup} installs it); otherwise, or when a rule cannot be added,
 * it says so once and the stack runs without (docs/devstack.md, "Ports beyond loopback").
 */
final class LoopbackFirewall {

    /** Each family's tool and the destinations that stay reachable. */
    private record Family(String tool, String loopback) {
    }

    private static final List<Family> FAMILIES = List.of(new Family("iptables", "127.0.0.0/8"),
            new Family("ip6tables", "::1/128"));

    private final String tag;
    private final boolean wanted;

    LoopbackFirewall(DevStackConfig config) {
        // the comment match takes at most 255 characters; a home's path is far shorter in practice
        String home = config.home().toString();
        this.tag = "flashstock-devstack " + (home.length() > 200 ? home.substring(home.length() - 200) : home);
        String setting = System.getProperty("devstack.firewall",
                System.getenv().getOrDefault("DEVSTACK_FIREWALL", "auto")).trim().toLowerCase(Locale.ROOT);
        this.wanted = !setting.equals("off");
    }

    /** Whether rules can be kept here: wanted, run as root, and {@code iptables} answers. */
    boolean available() {
        return wanted && "root".equals(System.getProperty("user.name")) && run(List.of("iptables", "-w", "-S",
                "INPUT")).ok();
    }

    /** Adds the rule of each port that has none yet. @return the ports now guarded (none when unavailable) */
    List<Integer> guard(List<Integer> ports) {
        if (ports.isEmpty()) {
            return List.of();
        }
        if (!available()) {
            System.err.println("devstack: ports " + ports + " listen on every interface and no firewall rule keeps"
                    + " them to loopback (run as root with iptables installed, or block them yourself: docs/devstack.md,"
                    + " \"Ports beyond loopback\")");
            return List.of();
        }
        List<Integer> guarded = new ArrayList<>();
        for (int port : ports) {
            boolean all = true;
            for (Family f : FAMILIES) {
                List<String> rule = rule(f, port);
                if (run(command(f, "-C", rule)).ok()) {
                    continue;
                }
                Result added = run(command(f, "-I", rule));
                if (!added.ok()) {
                    all = false;
                    System.err.println("devstack: cannot keep port " + port + " to loopback with " + f.tool() + ": "
                            + added.output());
                }
            }
            if (all) {
                guarded.add(port);
            }
        }
        return guarded;
    }

    /** Removes every rule this stack added, in both families. @return how many */
    int release() {
        if (!available()) {
            return 0;
        }
        int removed = 0;
        for (Family f : FAMILIES) {
            for (String line : rules(f)) {
                List<String> delete = new ArrayList<>(List.of(f.tool(), "-w", "-D"));
                delete.addAll(words(line.substring("-A ".length())));
                if (run(delete).ok()) {
                    removed++;
                }
            }
        }
        return removed;
    }

    /** This stack's rules in IPv4's INPUT chain, as {@code iptables -S} prints them (for tests and status). */
    List<String> rules() {
        return rules(FAMILIES.get(0));
    }

    private List<String> rules(Family f) {
        Result listed = run(List.of(f.tool(), "-w", "-S", "INPUT"));
        if (!listed.ok()) {
            return List.of();
        }
        return listed.output().lines().filter(l -> l.startsWith("-A INPUT ") && l.contains(tag)).toList();
    }

    private List<String> rule(Family f, int port) {
        return List.of("INPUT", "-p", "tcp", "--dport", Integer.toString(port), "!", "-d", f.loopback(),
                "-m", "comment", "--comment", tag, "-j", "DROP");
    }

    private static List<String> command(Family f, String action, List<String> rule) {
        List<String> command = new ArrayList<>(List.of(f.tool(), "-w", action));
        command.addAll(rule);
        return command;
    }

    /** Splits a rule as {@code -S} prints it, keeping a quoted comment whole. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ' ' && !quoted) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }

    private record Result(boolean ok, String output) {
    }

    private static Result run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(false, "timed out");
            }
            return new Result(p.exitValue() == 0, out.strip());
        } catch (IOException e) {
            return new Result(false, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, "interrupted");
        }
    }
}
