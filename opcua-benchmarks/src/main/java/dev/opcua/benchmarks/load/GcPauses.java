package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses of a child JVM's unified GC log ({@code -Xlog:gc,gc+phases:file=...}, lines such as {@code
 * [3.2s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 120M->80M(2048M) 12.345ms}, or ZGC's {@code
 * [gc,phases] GC(3) Pause Mark Start 0.012ms}): their count and the longest, the collections the harness asked for
 * ({@code System.gc()}, its footprint probes) left out.
 *
 * @param pauses pauses counted
 * @param maxMillis the longest, ms; 0 when none
 * @param totalMillis all of them together, ms
 */
record GcPauses(int pauses, double maxMillis, double totalMillis) {

    private static final Pattern PAUSE = Pattern.compile("\\bPause\\b.*\\s([0-9]+(?:\\.[0-9]+)?)ms\\s*$");

    /** The pauses of the log's lines; a line that is not a pause, or one the harness asked for, is skipped. */
    static GcPauses of(List<String> lines) {
        int count = 0;
        double max = 0;
        double total = 0;
        for (String line : lines) {
            if (line.contains("System.gc()")) {
                continue;
            }
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                double ms = Double.parseDouble(m.group(1));
                count++;
                total += ms;
                max = Math.max(max, ms);
            }
        }
        return new GcPauses(count, max, total);
    }

    /**
     * The pauses of the log file after its first {@code skip} lines (those of the start, when it loads classes and
     * builds its address space); null when it cannot be read.
     */
    static GcPauses read(Path log, int skip) {
        try {
            List<String> lines = Files.readAllLines(log);
            return of(lines.subList(Math.min(skip, lines.size()), lines.size()));
        } catch (IOException e) {
            return null;
        }
    }

    /** The lines the log has now; 0 when it cannot be read. */
    static int lines(Path log) {
        try {
            return Files.readAllLines(log).size();
        } catch (IOException e) {
            return 0;
        }
    }
}
