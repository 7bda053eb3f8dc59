package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses of a child JVM's unified GC log ({@code -Xlog:gc,gc+phases,gc+cpu:file=...}, lines such as {@code
 * [3.2s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 120M->80M(2048M) 12.345ms}, or ZGC's {@code
 * [gc,phases] GC(3) Pause Mark Start 0.012ms}): their count, the longest, the 99th percentile and the most CPU time
 * one of them took, the collections the harness asked for ({@code System.gc()}, its footprint probes) left out.
 *
 * <p>Why the CPU time: on a shared machine a stop-the-world pause lasts as long as its GC threads wait for a core
 * too, so its wall time measures the machine's load as much as the collector's work. {@code gc+cpu} logs a
 * collection's {@code User=0.20s Sys=0.01s Real=0.58s}; it is taken for a pause only when the collection made that
 * one pause (a G1 young or mixed collection), not for a concurrent cycle of several (G1's Remark and Cleanup, ZGC's,
 * Shenandoah's), whose CPU is mostly concurrent work.
 *
 * @param pauses pauses counted
 * @param maxMillis the longest, ms; 0 when none
 * @param totalMillis all of them together, ms
 * @param p99Millis the 99th percentile (nearest rank), ms; 0 when none
 * @param maxCpuMillis the most user plus system CPU that a single-pause collection took (its GC threads' work, the
 *        pause the collection would have made on idle cores times their number), ms; -1 when the log has none
 */
record GcPauses(int pauses, double maxMillis, double totalMillis, double p99Millis, double maxCpuMillis) {

    private static final Pattern PAUSE = Pattern.compile("\\bPause\\b.*\\s([0-9]+(?:\\.[0-9]+)?)ms\\s*$");
    private static final Pattern GC_ID = Pattern.compile("\\bGC\\(([0-9]+)\\)");
    private static final Pattern CPU = Pattern.compile("\\bUser=([0-9.]+)s Sys=([0-9.]+)s Real=");

    /** The pauses of the log's lines; a line that is not a pause, or one the harness asked for, is skipped. */
    static GcPauses of(List<String> lines) {
        double[] millis = new double[lines.size()];
        int count = 0;
        double total = 0;
        Map<String, Integer> pausesById = new HashMap<>();
        Map<String, Double> cpuById = new HashMap<>();
        for (String line : lines) {
            if (line.contains("System.gc()")) {
                continue;
            }
            Matcher id = GC_ID.matcher(line);
            String gc = id.find() ? id.group(1) : null;
            Matcher cpu = CPU.matcher(line);
            if (cpu.find()) {
                if (gc != null) {
                    cpuById.put(gc, (Double.parseDouble(cpu.group(1)) + Double.parseDouble(cpu.group(2))) * 1000);
                }
                continue;
            }
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                double ms = Double.parseDouble(m.group(1));
                millis[count++] = ms;
                total += ms;
                if (gc != null) {
                    pausesById.merge(gc, 1, Integer::sum);
                }
            }
        }
        Arrays.sort(millis, 0, count);
        double max = count == 0 ? 0 : millis[count - 1];
        double p99 = count == 0 ? 0 : millis[Math.max(0, (int) Math.ceil(count * 0.99) - 1)];
        double maxCpu = -1;
        for (Map.Entry<String, Integer> e : pausesById.entrySet()) {
            Double cpu = cpuById.get(e.getKey());
            if (e.getValue() == 1 && cpu != null) {
                maxCpu = Math.max(maxCpu, cpu);
            }
        }
        return new GcPauses(count, max, total, p99, maxCpu);
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
