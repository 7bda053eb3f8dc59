package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A small {@code sessions} run against our server in a child JVM: 20 sessions over Basic256Sha256
 * SignAndEncrypt, each with a subscription of 10 items the server changes; every session receives every
 * change of the window, no sequence number is missing, and the footprint is measured. No timing is
 * asserted. The Maven profile {@code sessions} runs it with 10,000 sessions ({@code sessions.count},
 * {@code sessions.duration}; README, "Load harness").
 */
class SessionsScenarioIT {

    private static final String SESSIONS = System.getProperty("sessions.count", "20");
    private static final String DURATION = System.getProperty("sessions.duration", "3");

    @Test
    void every_secure_session_receives_every_change_of_its_items() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--server", "ours", "--scenario", "sessions", "--sessions", SESSIONS,
            "--security", "encrypt", "--policy", "Basic256Sha256", "--items", "10", "--publishing-ms", "1000",
            "--duration", DURATION, "--warmup", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String log = err.toString(StandardCharsets.UTF_8);
        System.out.println(out.toString(StandardCharsets.UTF_8).strip()); // the RESULT line, for the profile's run
        assertThat(code).as(log).isZero();
        Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(result.get("security")).isEqualTo("Basic256Sha256/SignAndEncrypt");
        assertThat(result.get("sessions_open")).as(log).isEqualTo(SESSIONS);
        // revised by the server: sampled twice per change, so that no change falls between two samples
        assertThat(Double.parseDouble(result.get("sampling_ms"))).as(log).isEqualTo(500.0);
        assertThat(Long.parseLong(result.get("expected"))).as(log).isPositive();
        assertThat(result.get("delivered")).as(log).isEqualTo(result.get("expected"));
        assertThat(result.get("sessions_short")).as(log).isEqualTo("0");
        assertThat(result.get("sequence_gaps")).as(log).isEqualTo("0");
        assertThat(Long.parseLong(result.get("messages"))).as(log).isPositive();
        assertThat(result.get("errors")).as(log).isEqualTo("0");
        assertThat(result.get("verified")).as(log).isEqualTo("true");
        // the footprint came from the child's probe and /proc
        assertThat(result.get("heap_per_idle_session_b")).as(log).matches("-?\\d+");
        assertThat(Double.parseDouble(result.get("rss_idle_mb"))).as(log).isPositive();
        assertThat(log).contains("opened " + SESSIONS + " of " + SESSIONS + " sessions");
    }

    /** The key=value pairs of a RESULT line. */
    static Map<String, String> parse(String line) {
        assertThat(line).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }
}
