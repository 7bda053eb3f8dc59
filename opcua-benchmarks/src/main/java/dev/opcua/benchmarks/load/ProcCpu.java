package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of any process on Linux from {@code /proc/<pid>/stat} (utime + stime, fields 14 and 15). */
final class ProcCpu {

    /** {@code getconf CLK_TCK}: 100 on Linux on all common architectures. */
    static final long CLOCK_TICKS_PER_S = 100;

    private ProcCpu() {
    }

    /** User + system CPU in nanoseconds, -1 when /proc is not readable (not Linux, process gone). */
    static long cpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name in field 2 may hold spaces and parentheses: split after the last ')'
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * (1_000_000_000L / CLOCK_TICKS_PER_S);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
