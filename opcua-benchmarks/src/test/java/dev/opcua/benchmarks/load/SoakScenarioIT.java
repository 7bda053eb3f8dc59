package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code soak} against our server in a child JVM: by default 8 s at 150 operations per second, sampled
 * every 2 s, which checks the scenario (load, samples, CSV, PNG, no errors, no leak report) but is too short
 * for the RSS verdict. The Maven profile {@code soak} runs the full one (60 min, the capacity measured
 * first, sampled every 10 s, judged from minute 10) and requires {@code verdict=pass}
 * ({@code soak.duration}, {@code soak.rate}, {@code soak.settle}, {@code soak.sample}, {@code soak.sessions},
 * {@code soak.nodes}, {@code soak.warmup} (of the capacity measurement), {@code soak.report};
 * README, "Load harness").
 */
class SoakScenarioIT {

    private static final String DURATION = System.getProperty("soak.duration", "8");
    private static final String RATE = System.getProperty("soak.rate", "150");
    private static final String SETTLE = System.getProperty("soak.settle", "4");
    private static final String SAMPLE = System.getProperty("soak.sample", "2");
    private static final String SESSIONS = System.getProperty("soak.sessions", "4");
    private static final String NODES = System.getProperty("soak.nodes", "100");
    private static final String WARMUP = System.getProperty("soak.warmup", "5");
    private static final String REPORT = System.getProperty("soak.report", "");
    private static final boolean REQUIRE_PASS = Boolean.getBoolean("soak.requirePass");

    @Test
    void a_soak_samples_the_server_into_a_csv_and_a_chart_without_errors_or_leaks(@TempDir Path temp) throws Exception {
        Path report = REPORT.isBlank() ? temp : Path.of(REPORT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--server", "ours", "--scenario", "soak", "--sessions", SESSIONS,
            "--nodes", NODES, "--duration", DURATION, "--warmup", WARMUP, "--rate", RATE, "--settle", SETTLE,
            "--sample", SAMPLE, "--report", report.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ChurnScenarioIT.TeeOutputStream(err, System.err), true, StandardCharsets.UTF_8));

        String log = err.toString(StandardCharsets.UTF_8);
        System.out.println(out.toString(StandardCharsets.UTF_8).strip()); // the RESULT line, for the profile's run
        assertThat(code).as(log).isZero();
        Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
        List<SoakSample> samples = SoakSample.read(report.resolve("soak.csv"));
        long expected = Long.parseLong(DURATION) / Long.parseLong(SAMPLE);
        assertThat(samples).as(log).hasSizeGreaterThanOrEqualTo((int) expected);
        assertThat(result.get("samples")).isEqualTo(Integer.toString(samples.size()));
        for (SoakSample sample : samples) {
            assertThat(sample.rssKib()).as("RSS of %s", sample).isPositive();
            assertThat(sample.heapKib()).isPositive();
            assertThat(sample.threads()).isPositive();
            assertThat(sample.openFiles()).isPositive();
            // the workers, 4 subscribers, the flooder; the connect loop's session may be open at the sample
            long steady = Long.parseLong(SESSIONS) + 5;
            assertThat(sample.sessions()).isBetween(steady, steady + 1);
        }
        assertThat(Double.parseDouble(result.get("ops_per_s"))).as(log).isPositive();
        assertThat(Double.parseDouble(result.get("notifications_per_s"))).as(log).isPositive();
        assertThat(Long.parseLong(result.get("connects"))).as(log).isPositive();
        assertThat(Long.parseLong(result.get("flood_good")) + Long.parseLong(result.get("flood_busy"))).as(log)
                .isPositive();
        assertThat(result.get("errors")).as(log).isEqualTo("0");
        assertThat(result.get("leak_reports")).as(log).isEqualTo("0");
        BufferedImage chart = ImageIO.read(report.resolve("soak.png").toFile());
        assertThat(chart.getWidth()).isEqualTo(SoakChart.WIDTH);
        if (REQUIRE_PASS) {
            assertThat(result.get("verdict")).as(log).isEqualTo("pass");
        }
    }

    private static Map<String, String> parse(String line) {
        assertThat(line).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }
}
