package dev.opcua.benchmarks.load;

import java.util.Map;

/**
 * What a HotAndMirrored bench server's session mirror had cost when it answered a {@code STATS} probe: the
 * {@code mirror_*} and {@code notifications_sent} pairs of the line ({@code BenchServer}'s
 * {@code RunningBenchServer.mirrorStats()}). Two of them give the cost per notification sent in between.
 *
 * @param cpuNanos CPU time of the mirror thread (snapshots, encoding and the store's JDBC calls)
 * @param cycleNanos wall time of the mirror thread's rounds
 * @param storeNanos wall time in the store's writes (waiting for PostgreSQL included)
 * @param states session states written
 * @param failed writes that failed
 * @param dropped states dropped while the store was away
 * @param notificationsSent notifications the server sent to its clients
 */
record MirrorCost(long cpuNanos, long cycleNanos, long storeNanos, long states, long failed, long dropped,
        long notificationsSent) {

    /** The mirror's cost in a line; null when the line has none (a server that mirrors nothing, no answer). */
    static MirrorCost parse(String statsLine) {
        if (statsLine == null) {
            return null;
        }
        Map<String, Long> values = Footprint.numbers(statsLine);
        if (!values.containsKey("mirror_cpu_ns") || !values.containsKey("notifications_sent")) {
            return null;
        }
        return new MirrorCost(values.get("mirror_cpu_ns"), values.getOrDefault("mirror_cycle_ns", -1L),
                values.getOrDefault("mirror_store_ns", -1L), values.getOrDefault("mirror_states", -1L),
                values.getOrDefault("mirror_failed", -1L), values.getOrDefault("mirror_dropped", -1L),
                values.get("notifications_sent"));
    }

    /**
     * The RESULT fields of the cost between {@code start} and {@code end} over {@code seconds}: microseconds of
     * mirror thread CPU and of store writes per notification sent, the mirror thread's share of one core, states
     * written per second, and the database's CPU ({@code storeCpuNanos} in the same window, -1 when unknown) per
     * notification and as a share of one core; {@code n/a} for each when either answer is missing.
     */
    static Map<String, String> between(MirrorCost start, MirrorCost end, double seconds, long storeCpuNanos) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        boolean known = start != null && end != null && seconds > 0;
        long notifications = known ? end.notificationsSent - start.notificationsSent : 0;
        fields.put("mirror_notifications", known ? Long.toString(notifications) : "n/a");
        fields.put("mirror_cpu_us_per_notification", known && notifications > 0
                ? LoadHarness.fmt((end.cpuNanos - start.cpuNanos) / 1e3 / notifications) : "n/a");
        fields.put("mirror_store_us_per_notification", known && notifications > 0
                ? LoadHarness.fmt((end.storeNanos - start.storeNanos) / 1e3 / notifications) : "n/a");
        fields.put("mirror_cpu_share", known ? LoadHarness.fmt((end.cpuNanos - start.cpuNanos) / 1e9 / seconds) : "n/a");
        fields.put("mirror_busy_share", known ? LoadHarness.fmt((end.cycleNanos - start.cycleNanos) / 1e9 / seconds)
                : "n/a");
        fields.put("mirror_states_per_s", known ? LoadHarness.fmt((end.states - start.states) / seconds) : "n/a");
        boolean storeKnown = known && storeCpuNanos >= 0;
        fields.put("store_cpu_us_per_notification", storeKnown && notifications > 0
                ? LoadHarness.fmt(storeCpuNanos / 1e3 / notifications) : "n/a");
        fields.put("store_cpu_share", storeKnown ? LoadHarness.fmt(storeCpuNanos / 1e9 / seconds) : "n/a");
        fields.put("mirror_failed", known ? Long.toString(end.failed - start.failed) : "n/a");
        fields.put("mirror_dropped", known ? Long.toString(end.dropped - start.dropped) : "n/a");
        return fields;
    }
}
