package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time of a process's threads on Linux, summed by thread name without its trailing number
 * ({@code opcua-server-io-3} counts as {@code opcua-server-io}), from {@code /proc/<pid>/task/<tid>/schedstat}
 * (nanoseconds on the CPU, exact rather than the 10 ms ticks of {@code stat}). Threads that end between
 * two snapshots take their time with them. The bench servers' own load threads are named {@code bench-*}:
 * {@link #benchNanos} tells what the simulation cost, and {@link #jitNanos} what the JIT compilers did, so
 * that both can be told apart from the server's work on the path being measured.
 */
final class ThreadCpu {

    static final String BENCH_PREFIX = "bench-";

    private ThreadCpu() {
    }

    /** Nanoseconds on the CPU so far per thread name; empty when /proc is not readable. */
    static Map<String, Long> snapshot(long pid) {
        Map<String, Long> byName = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[-#]?\\d+$", "");
                    String schedstat = Files.readString(task.resolve("schedstat")).strip();
                    long nanos = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                    byName.merge(name, nanos, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return byName;
    }

    /** CPU per thread name between two snapshots, largest first; names only in {@code end} count from 0. */
    static Map<String, Long> between(Map<String, Long> start, Map<String, Long> end) {
        return end.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), Math.max(0, e.getValue() - start.getOrDefault(e.getKey(), 0L))))
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    /** The part of {@code cpu} spent by the bench server's own load threads ({@code bench-*}). */
    static long benchNanos(Map<String, Long> cpu) {
        return cpu.entrySet().stream().filter(e -> e.getKey().startsWith(BENCH_PREFIX))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** The part of {@code cpu} spent by the JVM's JIT compiler threads (C1, C2). */
    static long jitNanos(Map<String, Long> cpu) {
        return cpu.entrySet().stream().filter(e -> e.getKey().startsWith("C1 Compiler")
                || e.getKey().startsWith("C2 Compiler")).mapToLong(Map.Entry::getValue).sum();
    }

    /** All of {@code cpu}. */
    static long totalNanos(Map<String, Long> cpu) {
        return cpu.values().stream().mapToLong(Long::longValue).sum();
    }

    /** "name ms/s, ..." for the threads that used at least 0.1 ms per second. */
    static String describe(Map<String, Long> cpu, double seconds) {
        return cpu.entrySet().stream().filter(e -> e.getValue() / 1e6 / seconds >= 0.1)
                .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() / 1e6 / seconds))
                .collect(Collectors.joining(", "));
    }
}
