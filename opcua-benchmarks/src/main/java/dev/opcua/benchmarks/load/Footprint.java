package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a bench server holds at one moment, after a garbage collection: the answer to its {@code GC} probe
 * ({@code FOOTPRINT heap_used=<bytes> threads=<n> connections=<n> channels=<n> sessions=<n>}) and its open
 * file descriptors from /proc. The {@code churn} scenario compares the footprint before and after.
 *
 * @param heapUsed heap in use after the collection, bytes
 * @param threads live threads
 * @param connections open TCP connections the server counts (-1 when it does not tell)
 * @param channels open secure channels (-1 when it does not tell)
 * @param sessions sessions (-1 when it does not tell)
 * @param openFiles entries of /proc/&lt;pid&gt;/fd (-1 when unreadable)
 */
record Footprint(long heapUsed, long threads, long connections, long channels, long sessions, long openFiles) {

    static final String PREFIX = "FOOTPRINT ";

    /**
     * The {@code key=number} pairs of a probe's answer line, in order; words without {@code =} (the line's kind)
     * are skipped.
     *
     * @throws IllegalArgumentException naming the line when a value is not a number
     */
    static Map<String, Long> numbers(String line) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String pair : line.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                try {
                    values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad value in the line: " + line, e);
                }
            }
        }
        return values;
    }

    static Footprint parse(String line, long openFiles) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a FOOTPRINT line: " + line);
        }
        Map<String, Long> values = numbers(line);
        if (!values.containsKey("heap_used") || !values.containsKey("threads")) {
            throw new IllegalArgumentException("incomplete FOOTPRINT line: " + line);
        }
        return new Footprint(values.get("heap_used"), values.get("threads"), values.getOrDefault("connections", -1L),
                values.getOrDefault("channels", -1L), values.getOrDefault("sessions", -1L), openFiles);
    }

    /**
     * Entries of /proc/&lt;pid&gt;/fd but the class path's jars, -1 when unreadable (not Linux, process gone).
     * A jar is opened when the first class is loaded from it and stays open: under Maven, whose class path
     * is many jars, a rarely taken path (a handshake cut at one particular byte) opened one during a churn
     * and counted as a file "not given back".
     */
    static long openFiles(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.filter(fd -> !isJar(fd)).count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static boolean isJar(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString().endsWith(".jar");
        } catch (IOException | RuntimeException e) {
            return false; // closed meanwhile, or not a link: counted as it was listed
        }
    }

    /**
     * Whether {@code after} is back to this footprint: the same connections, channels, sessions and open
     * files (the server's own counts exact), at most {@code threadSlack} more threads (pools that grow on
     * demand and retire after their keep-alive) and at most {@code heapSlackBytes} more heap.
     */
    boolean backTo(Footprint after, long threadSlack, long heapSlackBytes) {
        return after.connections == connections && after.channels == channels && after.sessions == sessions
                && after.openFiles <= openFiles && after.threads <= threads + threadSlack
                && after.heapUsed <= heapUsed + heapSlackBytes;
    }
}
