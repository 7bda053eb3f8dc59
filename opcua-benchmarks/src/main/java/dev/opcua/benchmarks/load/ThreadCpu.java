package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time of a process's threads on Linux, from {@code /proc/<pid>/task/<tid>/schedstat} (nanoseconds on
 * the CPU, exact rather than the 10 ms ticks of {@code stat}): {@link #between} takes the difference per
 * thread and sums it by thread name without its trailing number ({@code opcua-server-io-3} counts as
 * {@code opcua-server-io}). A thread born in the window counts from 0; one that ended in it takes its time
 * with it (a cached pool that lets idle threads die does this), so the sum of the threads is at most the
 * process's CPU, and the server's work on the path is measured as the process's CPU less what the named
 * parts took. The bench servers' own load threads are named {@code bench-*}: {@link #benchNanos} tells what
 * the simulation cost, and {@link #jitNanos} what the JIT compilers did.
 */
final class ThreadCpu {

    static final String BENCH_PREFIX = "bench-";
    /** The longest thread name {@code /proc/<pid>/task/<tid>/comm} holds. */
    private static final int COMM_LENGTH = 15;

    /** One thread at a snapshot: its name without the trailing number, and its CPU so far. */
    record Sample(String name, long nanos) {
    }

    private ThreadCpu() {
    }

    /**
     * A thread's name less the number at its end and the {@code -} or {@code #} before it ("GC Thread#1",
     * "opcua-client-io-3"): threads group by the rest. Without a regular expression: the probes run in the
     * measured JVM, at the window's edges.
     */
    static String group(String name) {
        int end = name.length();
        while (end > 0 && name.charAt(end - 1) >= '0' && name.charAt(end - 1) <= '9') {
            end--;
        }
        if (end == name.length()) {
            return name;
        }
        if (end > 0 && (name.charAt(end - 1) == '-' || name.charAt(end - 1) == '#')) {
            end--;
        }
        return name.substring(0, end);
    }

    /** CPU so far per thread id; empty when /proc is not readable. */
    static Map<Long, Sample> snapshot(long pid) {
        Map<Long, Sample> byThread = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String name = group(Files.readString(task.resolve("comm")).strip());
                    String schedstat = Files.readString(task.resolve("schedstat")).strip();
                    long nanos = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                    byThread.put(Long.parseLong(task.getFileName().toString()), new Sample(name, nanos));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return byThread;
    }

    /**
     * CPU per thread name between two snapshots, largest first: each thread alive at {@code end} counts what
     * it used since {@code start}, or all of its time when it was born in between; threads that ended in
     * between are missing.
     */
    static Map<String, Long> between(Map<Long, Sample> start, Map<Long, Sample> end) {
        Map<String, Long> byName = new TreeMap<>();
        end.forEach((tid, sample) -> {
            Sample before = start.get(tid);
            long since = before == null || !before.name().equals(sample.name()) ? 0 : before.nanos();
            byName.merge(sample.name(), Math.max(0, sample.nanos() - since), Long::sum);
        });
        return byName.entrySet().stream()
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

    /**
     * The part of {@code cpu} spent by threads whose names start with one of {@code prefixes}; a name cut to the
     * 15 characters of {@code comm} matches a longer prefix it begins.
     */
    static long matchingNanos(Map<String, Long> cpu, List<String> prefixes) {
        return cpu.entrySet().stream().filter(e -> matches(e.getKey(), prefixes)).mapToLong(Map.Entry::getValue)
                .sum();
    }

    private static boolean matches(String name, List<String> prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix) || (name.length() >= COMM_LENGTH && prefix.startsWith(name))) {
                return true;
            }
        }
        return false;
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
