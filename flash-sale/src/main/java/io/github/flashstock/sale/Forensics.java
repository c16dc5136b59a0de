package io.github.flashstock.sale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the logs say of a run that did not come out clean: the XIDs its report names (an unmatched order, a
 * reconciler finding, an untrue answer), and for the first few of them every line of the TCs' and the services'
 * logs that mentions them. A rare failure is then explained by the run that had it, not by a rerun that may not.
 * (The TCs log their branch registrations and commits only at INFO: {@code LOGGING_LEVEL_IO_SEATA=INFO}, which
 * {@code bin/chaos} sets.)
 */
final class Forensics {

    /** A Seata XID: the TC's address, its port and the transaction id. */
    private static final Pattern XID = Pattern.compile("\\b\\d{1,3}(?:\\.\\d{1,3}){3}:\\d{2,5}:\\d{6,}\\b");

    private Forensics() {
    }

    /** The XIDs named in the report's evidence, in order of appearance, at most {@code most}. */
    static List<String> xids(DrillReport report, int most) {
        return xidsIn(Stream.of(report.unmatched(), report.findings(), report.contradictionExamples(),
                report.improperExamples()).flatMap(List::stream).toList(), most);
    }

    /** The distinct XIDs in {@code texts}, in order of appearance, at most {@code most}. */
    static List<String> xidsIn(List<String> texts, int most) {
        Set<String> found = new LinkedHashSet<>();
        for (String text : texts) {
            Matcher m = XID.matcher(text);
            while (m.find()) {
                found.add(m.group());
            }
        }
        return found.stream().limit(most).toList();
    }

    /**
     * For each XID, the lines of each log that mention it: at most {@code perFile} per log, each cut to 400
     * characters. Logs that cannot be read are named and skipped.
     */
    static Map<String, List<String>> lines(List<String> xids, List<Path> logs, int perFile) {
        Map<String, List<String>> byXid = new LinkedHashMap<>();
        xids.forEach(x -> byXid.put(x, new ArrayList<>()));
        for (Path log : logs) {
            if (!Files.isRegularFile(log)) {
                continue;
            }
            Map<String, Integer> counts = new LinkedHashMap<>();
            var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(log),
                    decoder))) {
                String line;
                while ((line = in.readLine()) != null) {
                    for (String xid : xids) {
                        if (line.contains(xid) && counts.merge(xid, 1, Integer::sum) <= perFile) {
                            byXid.get(xid).add(log.getFileName() + ": "
                                    + (line.length() > 400 ? line.substring(0, 400) + " ..." : line));
                        }
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                byXid.values().forEach(l -> l.add(log + ": not readable (" + e + ")"));
            }
        }
        return byXid;
    }

    /**
     * The words a service logs when a connection went back to its pool inside a server transaction (service-support's
     * {@code OpenTransactionGuard.LOG_MARK}, which this module does not depend on): a defect, so a drill that sees
     * one is not clean.
     */
    static final String OPEN_TRANSACTION_RETURNED = "A connection was returned to the pool inside a server transaction";

    /** Each log's size now: where {@link #linesSince} starts reading it. */
    static Map<Path, Long> sizes(List<Path> logs) {
        Map<Path, Long> sizes = new LinkedHashMap<>();
        for (Path log : logs) {
            try {
                sizes.put(log, Files.isRegularFile(log) ? Files.size(log) : 0L);
            } catch (IOException e) {
                sizes.put(log, 0L);
            }
        }
        return sizes;
    }

    /**
     * The lines containing {@code mark} written to {@code logs} after {@code from} (a log not in it: from its start),
     * at most {@code most}, each cut to 400 characters and named by its file.
     */
    static List<String> linesSince(Map<Path, Long> from, List<Path> logs, String mark, int most) {
        List<String> found = new ArrayList<>();
        for (Path log : logs) {
            if (!Files.isRegularFile(log) || found.size() >= most) {
                continue;
            }
            var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            try (var input = Files.newInputStream(log)) {
                long skip = Math.min(from.getOrDefault(log, 0L), Files.size(log));
                input.skipNBytes(skip);
                BufferedReader in = new BufferedReader(new java.io.InputStreamReader(input, decoder));
                String line;
                while ((line = in.readLine()) != null && found.size() < most) {
                    if (line.contains(mark)) {
                        found.add(log.getFileName() + ": " + (line.length() > 400 ? line.substring(0, 400) + " ..."
                                : line));
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                found.add(log + ": not readable (" + e + ")");
            }
        }
        return found;
    }

    /** Reads on one Redis copy: each cluster node on its own, or the one standalone server. */
    interface RedisCopies {

        /** The servers' ports. */
        List<Integer> ports();

        /** One read answered by the server at {@code port} itself; an error or no answer as text. */
        Object read(int port, String... command);
    }

    /** Log lines of a Redis server that say its role or the cluster's view of a node changed. */
    private static final Pattern ROLE_CHANGE = Pattern.compile("(?i)failover|election|reconfiguring|fail message"
            + "|marking node|clear fail|cluster state changed|secondary replication id|master mode|primary mode"
            + "|replicaof|connecting to (master|primary)|master <-> replica sync: finished|discarding previously"
            + "|configepoch");

    /**
     * What each store holds of the report's first XIDs and of the SKUs whose counts disagree: the ledger's units by
     * store and state per SKU; each named reservation's ledger rows and its fence record on every Redis copy (a
     * record a cluster node kept that the master lost, or the other way round); each such SKU's hash on every copy
     * (its epoch against the node's run id); and the Redis servers' log lines about roles and failovers. Nothing for
     * a clean report.
     */
    static void printStores(DrillReport report, List<StateReader.LedgerRow> ledger, RedisCopies redis,
                            List<Path> redisLogs, PrintStream out) {
        if (report.clean()) {
            return;
        }
        Set<String> xids = new LinkedHashSet<>(xids(report, 5));
        List<StateReader.LedgerRow> named = ledger.stream().filter(r -> xids.contains(r.xid())).toList();
        Set<String> skus = new LinkedHashSet<>();
        named.forEach(r -> skus.add(r.skuId()));
        report.skus().stream()
                .filter(s -> !s.stock().agree() || s.lost() > 0 || s.reserved() > 0 || s.oversold() > 0)
                .forEach(s -> skus.add(s.skuId()));
        List<String> some = skus.stream().limit(3).toList();
        if (some.isEmpty()) {
            return;
        }
        out.println("what the stores hold:");
        for (String sku : some) {
            Map<String, Long> units = new java.util.TreeMap<>();
            ledger.stream().filter(r -> r.skuId().equals(sku))
                    .forEach(r -> units.merge(r.store() + "/" + r.state(), (long) r.quantity(), Long::sum));
            out.println("  ledger of " + sku + ", units by store/state: " + units);
        }
        Map<Integer, String> nodes = new LinkedHashMap<>();
        for (int port : redis.ports()) {
            nodes.put(port, port + " " + field(redis.read(port, "INFO", "replication"), "role") + " run_id "
                    + field(redis.read(port, "INFO", "server"), "run_id"));
        }
        for (String sku : some) {
            out.println("  " + stockKey(sku) + " on each Redis server:");
            nodes.forEach((port, node) -> out.println("    " + node + ": "
                    + flat(redis.read(port, "HGETALL", stockKey(sku)))));
        }
        for (StateReader.LedgerRow row : named) {
            String fence = stockKey(row.skuId()) + ":tx:" + row.xid() + ":" + row.orderId();
            out.println("  " + row.xid() + " " + row.orderId() + ": ledger " + row.state() + " in " + row.store()
                    + ", " + row.quantity() + " x " + row.skuId() + "; its fence record:");
            nodes.forEach((port, node) -> out.println("    " + node + ": " + flat(redis.read(port, "HGETALL", fence))));
        }
        for (Path log : redisLogs) {
            List<String> changes = new ArrayList<>();
            try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
                lines.filter(l -> ROLE_CHANGE.matcher(l).find()).forEach(changes::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                out.println("  " + log + ": not readable (" + e + ")");
                continue;
            }
            if (!changes.isEmpty()) {
                out.println("  " + log.getFileName() + ", roles and failovers (last " + Math.min(60, changes.size())
                        + " of " + changes.size() + "):");
                changes.subList(Math.max(0, changes.size() - 60), changes.size()).forEach(l -> out.println("    " + l));
            }
        }
    }

    /**
     * Keys of the drill's SKUs on Redis servers the drill's services do not use (the standalone server, while they run
     * on the Redis Cluster or the Sentinel layout), one finding per SKU found there. There should be none: a key there
     * means another inventory-service, registered at the drill's coordinators under the same application, ran a
     * phase of the drill's branches on its own Redis. Seata sends a branch's phase to another participant of the
     * application when the one that registered the branch is gone (killed, or reconnected on a new port), and that
     * one, finding no record, takes it as a sale its Redis lost (docs/failures.md, "What chaos found").
     */
    static List<String> strayKeys(RedisCopies others, Collection<String> skuIds) {
        List<String> found = new ArrayList<>();
        for (int port : others.ports()) {
            for (String sku : skuIds.stream().sorted().toList()) {
                List<String> keys = new ArrayList<>();
                String cursor = "0";
                do {
                    Object reply = others.read(port, "SCAN", cursor, "MATCH", stockKey(sku) + "*", "COUNT", "1000");
                    if (!(reply instanceof List<?> page) || page.size() != 2
                            || !(page.get(1) instanceof List<?> some)) {
                        // a server that does not run holds nothing another participant could have written
                        if (!String.valueOf(reply).startsWith("unreachable")) {
                            found.add("STRAY_PARTICIPANT? the Redis at port " + port + " did not answer a SCAN for"
                                    + " SKU " + sku + ": " + reply);
                        }
                        break;
                    }
                    some.forEach(k -> keys.add(String.valueOf(k)));
                    cursor = String.valueOf(page.get(0));
                } while (!cursor.equals("0"));
                if (!keys.isEmpty()) {
                    found.add("STRAY_PARTICIPANT " + sku + ": " + keys.size() + " key(s) of it on the Redis at port "
                            + port + ", which the drill's services do not use (e.g. " + keys.stream().sorted()
                            .limit(3).toList() + "): a participant outside the drill ran phases of its branches there");
                }
            }
        }
        return found;
    }

    /** {@code inv:{<sku>}}, as the inventory service names a SKU's stock hash. */
    static String stockKey(String sku) {
        return "inv:{" + sku + "}";
    }

    /** A field of an {@code INFO} answer, or the answer itself when it is not one (an error, no answer). */
    static String field(Object info, String name) {
        if (info instanceof String text && !text.startsWith("-") && !text.startsWith("unreachable")) {
            return text.lines().filter(l -> l.startsWith(name + ":")).map(l -> l.substring(name.length() + 1).trim())
                    .findFirst().orElse("?");
        }
        return String.valueOf(info);
    }

    /** An {@code HGETALL} answer as {@code field=value ...}; "(none)" for a missing key. */
    static String flat(Object reply) {
        if (reply instanceof List<?> items) {
            if (items.isEmpty()) {
                return "(none)";
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i + 1 < items.size(); i += 2) {
                b.append(i == 0 ? "" : " ").append(items.get(i)).append('=').append(items.get(i + 1));
            }
            return b.length() > 400 ? b.substring(0, 400) + " ..." : b.toString();
        }
        return String.valueOf(reply);
    }

    /** Prints what {@link #lines} found for the report's first XIDs; nothing for a clean report. */
    static void print(DrillReport report, List<Path> logs, PrintStream out) {
        if (report.clean()) {
            return;
        }
        List<String> xids = xids(report, 5);
        if (xids.isEmpty()) {
            return;
        }
        out.println("what the logs say of the first " + xids.size() + " XID(s) the checks name:");
        lines(xids, logs, 20).forEach((xid, found) -> {
            out.println("  " + xid + (found.isEmpty() ? ": no log line mentions it" : ":"));
            found.forEach(l -> out.println("    " + l));
        });
    }
}
