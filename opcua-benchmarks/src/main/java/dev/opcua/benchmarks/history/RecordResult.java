package dev.opcua.benchmarks.history;

import java.util.Locale;

/**
 * What one {@link RecordRun} measured over its measured seconds, and what the store held at the end.
 *
 * @param recordedPerSecond values the store acknowledged per second
 * @param backlogMax the most values waiting (queued in the recorder or handed to the store, not yet acknowledged)
 *        at a progress line of the measured window
 * @param dropped values the recorder dropped since the start because its queue was full
 * @param refused values the store refused since the start
 * @param cpuMicrosPerValue process CPU (every thread, GC and JIT included) per value acknowledged
 * @param deviceCpuMicrosPerValue of it, the device thread's: making the value, setValue, and queueing it
 * @param storeCpuMicrosPerValue of it, the recorder's and store's own threads ({@code opcua-history-*})
 * @param bytesPerValue heap bytes allocated by every Java thread per value acknowledged
 * @param deviceBytesPerValue of it, the device thread's (the value itself and queueing it)
 * @param storeBytesPerValue of it, the recorder's and store's own threads
 * @param expected values set plus the initial values
 * @param stored values read back from the store at the end
 * @param drainSeconds how long the backlog took to empty after the changes stopped
 */
record RecordResult(String store, int variables, double rate, int seconds, double recordedPerSecond, long backlogMax,
        long dropped, long refused, double cpuMicrosPerValue, double deviceCpuMicrosPerValue,
        double storeCpuMicrosPerValue, double bytesPerValue, double deviceBytesPerValue, double storeBytesPerValue,
        long expected, long stored, double drainSeconds) {

    static RecordResult of(RecordOptions options, String store, RecordRun.Window.Point from, RecordRun.Window.Point to,
            long backlogMax, RecordRun.Window.Point end, long expected, long stored, double drainSeconds) {
        long values = to.appended() - from.appended();
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        ProcessUsage a = from.usage();
        ProcessUsage b = to.usage();
        return new RecordResult(store, options.variables(), options.rate(), options.seconds(), values / seconds,
                backlogMax, end.dropped(), end.refused(),
                RecordRun.perValue(b.processCpuNanos() - a.processCpuNanos(), values) / 1000,
                RecordRun.perValue(b.cpuSince(a, RecordRun.DEVICE), values) / 1000,
                RecordRun.perValue(b.cpuSince(a, RecordRun.storeThreads()), values) / 1000,
                RecordRun.perValue(b.allocatedSince(a, name -> true), values),
                RecordRun.perValue(b.allocatedSince(a, RecordRun.DEVICE), values),
                RecordRun.perValue(b.allocatedSince(a, RecordRun.storeThreads()), values),
                expected, stored, drainSeconds);
    }

    /** Whether every value set was stored: none dropped, none refused, all read back. */
    boolean complete() {
        return dropped == 0 && refused == 0 && stored == expected;
    }

    String line() {
        return String.format(Locale.ROOT, "RESULT bench=record store=%s variables=%d rate=%.0f seconds=%d"
                        + " recorded_per_s=%.0f backlog_max=%d dropped=%d refused=%d cpu_us_per_value=%.2f"
                        + " device_cpu_us_per_value=%.2f store_cpu_us_per_value=%.2f bytes_per_value=%.0f"
                        + " device_bytes_per_value=%.0f store_bytes_per_value=%.0f expected=%d stored=%d"
                        + " drain_s=%.1f complete=%s",
                store.split(" ")[0], variables, rate, seconds, recordedPerSecond, backlogMax, dropped, refused,
                cpuMicrosPerValue, deviceCpuMicrosPerValue, storeCpuMicrosPerValue, bytesPerValue,
                deviceBytesPerValue, storeBytesPerValue, expected, stored, drainSeconds, complete());
    }
}
