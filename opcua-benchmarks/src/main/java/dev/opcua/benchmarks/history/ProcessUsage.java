package dev.opcua.benchmarks.history;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * CPU and heap allocation of this process at one moment: the process CPU (every thread, the JVM's own GC and JIT
 * threads included) and, per live Java thread, its CPU and allocated bytes from HotSpot's per-thread counters, so
 * that two snapshots split a window's work by thread name (the simulated device against the recording).
 */
record ProcessUsage(long processCpuNanos, Map<Long, ThreadUsage> threads) {

    /** One thread's name, CPU and allocated bytes so far. */
    record ThreadUsage(String name, long cpuNanos, long allocatedBytes) {
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Turns the per-thread counters on; the first snapshot after it counts every live thread's bytes. */
    static void enable() {
        THREADS.setThreadAllocatedMemoryEnabled(true);
        THREADS.setThreadCpuTimeEnabled(true);
    }

    static ProcessUsage now() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        long[] cpu = THREADS.getThreadCpuTime(ids);
        var infos = THREADS.getThreadInfo(ids);
        Map<Long, ThreadUsage> threads = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && bytes[i] >= 0 && cpu[i] >= 0) { // -1 or null: the thread ended meanwhile
                threads.put(ids[i], new ThreadUsage(infos[i].getThreadName(), cpu[i], bytes[i]));
            }
        }
        return new ProcessUsage(OS.getProcessCpuTime(), threads);
    }

    /** Bytes the threads whose names match allocated since {@code before} (a thread born since: all of its bytes). */
    long allocatedSince(ProcessUsage before, Predicate<String> names) {
        long total = 0;
        for (Map.Entry<Long, ThreadUsage> e : threads.entrySet()) {
            if (names.test(e.getValue().name())) {
                ThreadUsage start = before.threads.get(e.getKey());
                total += e.getValue().allocatedBytes() - (start == null ? 0 : start.allocatedBytes());
            }
        }
        return total;
    }

    /** CPU the threads whose names match used since {@code before}. */
    long cpuSince(ProcessUsage before, Predicate<String> names) {
        long total = 0;
        for (Map.Entry<Long, ThreadUsage> e : threads.entrySet()) {
            if (names.test(e.getValue().name())) {
                ThreadUsage start = before.threads.get(e.getKey());
                total += e.getValue().cpuNanos() - (start == null ? 0 : start.cpuNanos());
            }
        }
        return total;
    }
}
