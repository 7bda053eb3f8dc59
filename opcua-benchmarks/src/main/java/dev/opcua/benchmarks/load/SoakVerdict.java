package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code soak} scenario's pass criterion: from the settle time on (minute 10 of the
 * full run) every RSS sample lies within {@code tolerance} (5 %) of the first sample at or after it, and
 * the server logged no leak report (Netty's ResourceLeakDetector writes {@code LEAK:}).
 *
 * @param rssBaseKib the first RSS sample at or after the settle time; -1 when there is none
 * @param rssMaxDeviation the largest |rss / base - 1| from then on
 * @param judgedSamples samples at or after the settle time
 * @param leakReports lines with {@code LEAK:} in the server's log
 */
record SoakVerdict(long rssBaseKib, double rssMaxDeviation, int judgedSamples, long leakReports, double tolerance) {

    static final double TOLERANCE = 0.05;

    static SoakVerdict judge(List<SoakSample> samples, long settleS, long leakReports) {
        long base = -1;
        double worst = 0;
        int judged = 0;
        for (SoakSample sample : samples) {
            if (sample.elapsedS() < settleS || sample.rssKib() <= 0) {
                continue;
            }
            if (base < 0) {
                base = sample.rssKib();
            }
            worst = Math.max(worst, Math.abs((double) sample.rssKib() / base - 1));
            judged++;
        }
        return new SoakVerdict(base, worst, judged, leakReports, TOLERANCE);
    }

    /** At least two samples judged, RSS within the tolerance, no leak report. */
    boolean passed() {
        return rssWithin() && leakReports == 0;
    }

    boolean rssWithin() {
        return judgedSamples >= 2 && rssMaxDeviation <= tolerance;
    }

    /** Lines of {@code log} that report a leak; -1 when it cannot be read. */
    static long leakReports(Path log) {
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("LEAK:")).count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
