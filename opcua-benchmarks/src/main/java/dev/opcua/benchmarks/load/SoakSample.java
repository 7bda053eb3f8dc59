package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row of the {@code soak} scenario's CSV: the child server's resident memory (VmRSS of
 * /proc/&lt;pid&gt;/status), heap after a collection, threads, open files, its connection, channel and
 * session counts, and the load over the interval since the previous row.
 *
 * @param elapsedS seconds since the paced load started
 * @param rssKib resident set size, KiB
 * @param heapKib heap in use after the server's collection, KiB
 * @param opsPerS Good operations of the mix per second over the interval
 * @param notificationsPerS data-change notifications received per second over the interval
 * @param errors errors so far (the flooder's BadServerTooBusy not counted)
 * @param floodBusy the flooder's BadServerTooBusy answers so far
 */
record SoakSample(long elapsedS, long rssKib, long heapKib, long threads, long openFiles, long connections,
        long channels, long sessions, double opsPerS, double notificationsPerS, long errors, long floodBusy) {

    static final String HEADER = "elapsed_s,rss_kib,heap_kib,threads,open_files,connections,channels,sessions,"
            + "ops_per_s,notifications_per_s,errors,flood_busy";

    String csv() {
        return String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%d,%d", elapsedS, rssKib, heapKib,
                threads, openFiles, connections, channels, sessions, opsPerS, notificationsPerS, errors, floodBusy);
    }

    static SoakSample parse(String line) {
        String[] f = line.split(",");
        if (f.length != 12) {
            throw new IllegalArgumentException("a soak CSV row has 12 fields, this one " + f.length + ": " + line);
        }
        return new SoakSample(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                Double.parseDouble(f[8]), Double.parseDouble(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11]));
    }

    /** The rows of a CSV written by the scenario (its header checked). */
    static List<SoakSample> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalArgumentException(csv + " is not a soak CSV: its header is not " + HEADER);
        }
        List<SoakSample> samples = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                samples.add(parse(line));
            }
        }
        return samples;
    }

    /** VmRSS of a process in KiB ({@link ProcessMemory#rssBytesOrUnknown}); -1 when unreadable. */
    static long rssKib(long pid) {
        long bytes = ProcessMemory.rssBytesOrUnknown(pid);
        return bytes < 0 ? -1 : bytes / 1024;
    }
}
