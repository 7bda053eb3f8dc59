package dev.opcua.stack.server.subscriptions.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Scale check, off by default ({@code -Dopcua.scale=true}): 10,000 members at 100 ms for 60 s,
 * each getting at least 99 % of its expected samples (the .NET stack's counter benchmark).
 * {@code -Dopcua.scale.seconds}, {@code .members} and {@code .intervalMillis} change the load.
 */
@EnabledIfSystemProperty(named = "opcua.scale", matches = "true")
class SamplingSchedulerScaleTest {

    private static final class Counter {
        long samples; // scheduler thread only; read after close() joined it
    }

    private final int seconds = Integer.getInteger("opcua.scale.seconds", 60);
    private final int memberCount = Integer.getInteger("opcua.scale.members", 10_000);
    private final long interval = TimeUnit.MILLISECONDS.toNanos(Integer.getInteger("opcua.scale.intervalMillis", 100));
    private final long window = TimeUnit.SECONDS.toNanos(seconds);
    private final long[] lateness = new long[(int) (window / interval) + 16];
    private final long[] callNanos = new long[lateness.length];
    private int recorded; // scheduler thread only
    /** Ticks whose deadline lies in [windowStart, windowStart + window) count. */
    private volatile long windowStart;
    private volatile boolean windowOpen;

    private void sample(long intervalNanos, List<Counter> members, long deadline) {
        long start = System.nanoTime();
        if (!windowOpen || deadline - windowStart < 0 || deadline - (windowStart + window) >= 0) {
            return;
        }
        for (int i = 0, n = members.size(); i < n; i++) {
            members.get(i).samples++;
        }
        if (recorded < lateness.length) {
            lateness[recorded] = start - deadline;
            callNanos[recorded++] = System.nanoTime() - start;
        }
    }

    @Test
    void every_member_gets_at_least99_percent_of_its_expected_samples() throws Exception {
        Counter[] counters = new Counter[memberCount];
        SamplingScheduler<Counter> scheduler = new SamplingScheduler<>("opcua-sampling-scale", this::sample);
        long addNanos;
        try {
            long addStart = System.nanoTime();
            for (int i = 0; i < memberCount; i++) {
                counters[i] = new Counter();
                scheduler.add(interval, counters[i]);
            }
            addNanos = System.nanoTime() - addStart;
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * interval)); // warm-up: every member joins the ticks
            windowStart = System.nanoTime();
            windowOpen = true;
            // the measured window and its last ticks
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(window + 3 * interval));
        } finally {
            scheduler.close();
        }

        long expected = window / interval;
        LongSummaryStatistics perMember = Arrays.stream(counters).mapToLong(c -> c.samples).summaryStatistics();
        long[] sortedLateness = Arrays.copyOf(lateness, recorded);
        Arrays.sort(sortedLateness);
        LongSummaryStatistics calls = Arrays.stream(callNanos, 0, recorded).summaryStatistics();
        System.out.printf("sampling scale: %d members at %d ms for %d s (adding them: %.1f ms): expected %d samples"
                        + " each, got min %d avg %.2f max %d (worst member %.2f %%); tick lateness p50 %.3f ms"
                        + " p99 %.3f ms max %.3f ms; sampler call avg %.3f ms max %.3f ms; %s%n",
                memberCount, TimeUnit.NANOSECONDS.toMillis(interval), seconds, addNanos / 1e6, expected,
                perMember.getMin(), perMember.getAverage(), perMember.getMax(), 100.0 * perMember.getMin() / expected,
                percentile(sortedLateness, 0.50) / 1e6, percentile(sortedLateness, 0.99) / 1e6,
                percentile(sortedLateness, 1.0) / 1e6, calls.getAverage() / 1e6, calls.getMax() / 1e6,
                scheduler.statistics());
        assertThat(perMember.getMin()).as("samples of the worst member, of %d expected", expected)
                .isGreaterThanOrEqualTo((long) Math.ceil(0.99 * expected));
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }
}
