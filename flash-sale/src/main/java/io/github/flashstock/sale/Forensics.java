package io.github.flashstock.sale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
