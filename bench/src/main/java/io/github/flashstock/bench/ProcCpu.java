package io.github.flashstock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time as Linux counts it in {@code /proc}: per process ({@code utime + stime} of {@code /proc/<pid>/stat}, all
 * its threads) and for the whole machine (the busy part of {@code /proc/stat}'s first line). Both are in clock ticks
 * of {@code 1 / CLK_TCK} seconds (USER_HZ), 100 on x86 and ARM Linux, where this runs.
 */
final class ProcCpu {

    static final double TICK_MILLIS = 10.0;

    private ProcCpu() {
    }

    /** CPU ticks a process used so far; 0 when it is gone. */
    static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) may hold spaces and parentheses: count fields after its closing one
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            // fields 14 and 15 of the file are 12 and 13 after the name (field 3 is f[0])
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * The heap, GC and JIT options a JVM was started with, from {@code /proc/<pid>/cmdline} (class-data and logging
     * options left out): what the report says each process ran with.
     */
    static String jvmOptions(long pid) {
        try {
            String[] args = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0");
            StringBuilder options = new StringBuilder();
            for (String a : args) {
                if ((a.startsWith("-X") || a.startsWith("-XX:")) && !a.contains("SharedArchiveFile")
                        && !a.contains("ArchiveClassesAtExit") && !a.startsWith("-Xlog") && !a.startsWith("-Xshare")) {
                    options.append(options.isEmpty() ? "" : " ").append(a);
                }
            }
            return options.toString();
        } catch (IOException e) {
            return "?";
        }
    }

    /** Ticks of all the given processes together. */
    static long ticks(List<Long> pids) {
        return pids.stream().mapToLong(ProcCpu::ticks).sum();
    }

    /** Busy ticks of the whole machine, all cores: everything but idle and iowait. */
    static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The processes one measurement follows, by name; read before and after a run. */
    static final class Meter {

        private final Map<String, List<Long>> processes;
        private final Map<String, Long> before = new LinkedHashMap<>();
        private long machineBefore;

        Meter(Map<String, List<Long>> processes) {
            this.processes = processes;
        }

        void start() {
            processes.forEach((name, pids) -> before.put(name, ticks(pids)));
            machineBefore = machineBusyTicks();
        }

        /** CPU milliseconds each process used since {@link #start()}, plus {@code machine} for all of it. */
        Map<String, Double> stop() {
            Map<String, Double> used = new LinkedHashMap<>();
            processes.forEach((name, pids) -> used.put(name, (ticks(pids) - before.get(name)) * TICK_MILLIS));
            used.put(MACHINE, (machineBusyTicks() - machineBefore) * TICK_MILLIS);
            return used;
        }
    }

    static final String MACHINE = "whole machine";
}
