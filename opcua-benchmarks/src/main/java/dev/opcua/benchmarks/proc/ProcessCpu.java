package dev.opcua.benchmarks.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a process has used, user and system, from {@code /proc/<pid>/stat} (Linux). Unlike wall time it hardly
 * changes when other processes compete for the cores, so it compares start-ups measured on a busy machine.
 */
public final class ProcessCpu {

    /** The unit of the stat file's times: USER_HZ, 100 on every Linux architecture that exposes it. */
    private static final long MILLIS_PER_TICK = 10;

    private ProcessCpu() {
    }

    /**
     * User plus system CPU of the process so far, milliseconds.
     *
     * @throws IOException when its stat file cannot be read (not Linux, the process is gone)
     */
    public static long millis(long pid) throws IOException {
        return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    }

    /** User plus system CPU of the process so far, nanoseconds (in steps of a clock tick); -1 when unreadable. */
    public static long nanosOrUnknown(long pid) {
        try {
            return millis(pid) * 1_000_000L;
        } catch (IOException | IllegalArgumentException e) {
            return -1; // not Linux, or the process is gone
        }
    }

    /**
     * User plus system CPU in a stat file's text, milliseconds.
     *
     * @throws IllegalArgumentException when the text is not a stat line
     */
    static long parse(String stat) {
        // the command name (field 2) is in parentheses and may hold spaces: count fields after its closing one
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        String[] fields = stat.substring(end + 1).trim().split("\\s+");
        // fields[0] is field 3 (state); utime and stime are fields 14 and 15
        if (fields.length < 13) {
            throw new IllegalArgumentException("too few fields in the /proc stat line: " + stat);
        }
        try {
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * MILLIS_PER_TICK;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed times in the /proc stat line: " + stat, e);
        }
    }
}
