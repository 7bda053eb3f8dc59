package dev.opcua.benchmarks.transport;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Heap bytes allocated by groups of threads between two snapshots, from HotSpot's per-thread
 * allocation counters: how a client and a server running in one process split the allocation of a
 * request, told apart by thread name.
 */
public final class ThreadAllocations {

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public ThreadAllocations() {
        threads.setThreadAllocatedMemoryEnabled(true);
    }

    /** Allocated bytes so far, by thread id, with each thread's name. */
    public Map<Long, Sample> snapshot() {
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Sample> samples = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            var info = threads.getThreadInfo(ids[i]);
            if (info != null && bytes[i] >= 0) {
                samples.put(ids[i], new Sample(info.getThreadName(), bytes[i]));
            }
        }
        return samples;
    }

    /** Bytes allocated between the snapshots by the threads whose names match. */
    public static long between(Map<Long, Sample> before, Map<Long, Sample> after, Predicate<String> names) {
        long total = 0;
        for (Map.Entry<Long, Sample> e : after.entrySet()) {
            if (names.test(e.getValue().name())) {
                Sample start = before.get(e.getKey());
                total += e.getValue().bytes() - (start == null ? 0 : start.bytes());
            }
        }
        return total;
    }

    public record Sample(String name, long bytes) {
    }
}
