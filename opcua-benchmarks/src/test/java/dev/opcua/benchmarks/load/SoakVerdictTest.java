package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's pass criterion: RSS within 5 % from the settle time on, and no leak report. */
class SoakVerdictTest {

    @Test
    void a_flat_rss_after_the_settle_time_passes_whatever_it_did_before() {
        List<SoakSample> samples = rss(100_000, 150_000, 200_000, 200_000, 204_000, 197_000);

        SoakVerdict verdict = SoakVerdict.judge(samples, 20, 0);

        assertThat(verdict.rssBaseKib()).isEqualTo(200_000);
        assertThat(verdict.judgedSamples()).isEqualTo(4);
        assertThat(verdict.rssMaxDeviation()).isCloseTo(0.02, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(verdict.passed()).isTrue();
    }

    @Test
    void rss_growing_past_five_percent_of_its_settled_value_fails() {
        SoakVerdict verdict = SoakVerdict.judge(rss(200_000, 200_000, 205_000, 210_001), 10, 0);

        assertThat(verdict.rssWithin()).isFalse();
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void a_leak_report_fails_even_with_a_flat_rss() {
        SoakVerdict verdict = SoakVerdict.judge(rss(200_000, 200_000, 200_000), 0, 1);

        assertThat(verdict.rssWithin()).isTrue();
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void fewer_than_two_samples_after_the_settle_time_cannot_pass() {
        assertThat(SoakVerdict.judge(rss(200_000, 200_000, 200_000), 20, 0).passed()).isFalse();
    }

    @Test
    void leak_reports_are_the_lines_of_the_server_log_that_say_leak(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "INFO started\nERROR io.netty.util.ResourceLeakDetector - LEAK: ByteBuf.release() "
                + "was not called\n\tat somewhere\nWARN slow\nERROR LEAK: again\n");

        assertThat(SoakVerdict.leakReports(log)).isEqualTo(2);
        assertThat(SoakVerdict.leakReports(dir.resolve("missing.log"))).as("unreadable").isEqualTo(-1);
    }

    /** Samples 10 s apart with these RSS values. */
    private static List<SoakSample> rss(long... kib) {
        List<SoakSample> samples = new ArrayList<>();
        for (int i = 0; i < kib.length; i++) {
            samples.add(new SoakSample(i * 10L, kib[i], 16_000, 30, 35, 13, 13, 13, 100, 10, 0, 0));
        }
        return samples;
    }
}
