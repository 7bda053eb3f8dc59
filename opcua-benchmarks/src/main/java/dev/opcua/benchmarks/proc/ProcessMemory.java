package dev.opcua.benchmarks.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resident memory of a process from {@code /proc/<pid>/status} (Linux): {@code VmRSS} now and {@code VmHWM}, the
 * highest it reached.
 *
 * @param rssKb resident set size, KiB
 * @param peakRssKb the peak resident set size, KiB
 */
public record ProcessMemory(long rssKb, long peakRssKb) {

    /**
     * Reads the process's status file.
     *
     * @throws IOException when it cannot be read (not Linux, the process is gone)
     */
    public static ProcessMemory of(long pid) throws IOException {
        return parse(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
    }

    /** The resident set size of a process now (VmRSS), bytes; -1 when unreadable. */
    public static long rssBytesOrUnknown(long pid) {
        try {
            return of(pid).rssKb() * 1024;
        } catch (IOException | IllegalArgumentException e) {
            return -1; // not Linux, or the process is gone
        }
    }

    /**
     * The memory lines of a status file's text.
     *
     * @throws IllegalArgumentException naming the line that is missing or malformed
     */
    static ProcessMemory parse(String status) {
        return new ProcessMemory(kibibytes(status, "VmRSS:"), kibibytes(status, "VmHWM:"));
    }

    private static long kibibytes(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                String[] words = line.substring(key.length()).trim().split("\\s+");
                if (words.length == 2 && words[1].equals("kB")) {
                    try {
                        return Long.parseLong(words[0]);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("malformed status line: " + line, e);
                    }
                }
                throw new IllegalArgumentException("malformed status line: " + line);
            }
        }
        throw new IllegalArgumentException("no " + key + " line in the process status");
    }
}
