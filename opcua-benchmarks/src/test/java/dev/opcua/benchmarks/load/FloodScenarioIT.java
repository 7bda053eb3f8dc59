package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.BenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code flood} scenario against our server with a request queue of 4 and one worker, every request
 * through the queue ({@code bench.inlineWhenIdle=false}: run inline on the event loop, a flood is paced by
 * TCP instead and never reaches the queue): the flooder keeps 64 Reads outstanding, so most of them are
 * refused, while three quiet sessions read a few times per second; or a {@link RawFlooder} writes Reads
 * without waiting for answers, also against the default server, whose flood bound per socket read refuses
 * it. Behaviour, not timing: the flooder is answered BadServerTooBusy, the server
 * counts the refusals, and every Read of the quiet sessions is answered Good in both windows.
 */
class FloodScenarioIT {

    @Test
    void the_flooder_is_refused_and_the_quiet_sessions_are_served() {
        flood("--flood-client", "session", "--flood-inflight", "64");
    }

    @Test
    void a_raw_flooder_that_never_waits_is_refused_and_the_quiet_sessions_are_served() {
        Map<String, String> result = flood("--flood-client", "raw");
        assertThat(result.get("flood_client")).isEqualTo("raw");
        assertThat(result.get("flooder_sent_per_s")).isNotEqualTo("n/a");
        assertThat(result.get("flooder_other_errors")).isEqualTo("0");
    }

    /**
     * The default server (small Reads inline on the event loop): the raw flooder fills every socket read with
     * hundreds of Reads, so the flood bound per read ({@code requests.max-per-read}) refuses the excess.
     */
    @Test
    void a_raw_flooder_against_the_default_server_is_refused_beyond_the_bound_per_read() {
        Map<String, String> result = flood(true, "--flood-client", "raw");
        assertThat(result.get("flooder_other_errors")).isEqualTo("0");
    }

    private static Map<String, String> flood(String... flooder) {
        return flood(false, flooder);
    }

    private static Map<String, String> flood(boolean inline, String... flooder) {
        RunningBenchServer started;
        System.setProperty("bench.inlineWhenIdle", Boolean.toString(inline));
        try {
            started = BenchServer.start(new BenchOptions(0, 100, "localhost", inline ? 4 : 1, inline ? 200 : 4, null,
                    false));
        } finally {
            System.clearProperty("bench.inlineWhenIdle");
        }
        try (RunningBenchServer server = started) {
            long rejectedBefore = server.rejectedRequests();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            List<String> args = new ArrayList<>(List.of("--url", server.endpointUrl(), "--scenario", "flood",
                    "--sessions", "4", "--quiet-rate", "20", "--nodes", "100", "--duration", "1", "--warmup", "1"));
            args.addAll(List.of(flooder));
            int code = LoadHarness.run(args.toArray(String[]::new),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));

            String log = err.toString(StandardCharsets.UTF_8);
            assertThat(code).as(log).isZero();
            Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
            assertThat(result).containsKeys("baseline_p99_us", "flood_p99_us", "p99_ratio", "server_rejected_per_s");
            assertThat(result.get("scenario")).isEqualTo("flood");
            assertThat(Double.parseDouble(result.get("flooder_busy_per_s"))).as(log).isPositive();
            assertThat(Long.parseLong(result.get("baseline_reads"))).as(log).isPositive();
            assertThat(Long.parseLong(result.get("flood_reads"))).as(log).isPositive();
            assertThat(result.get("quiet_errors")).as(log).isEqualTo("0");
            assertThat(server.rejectedRequests()).as("the server's refusal counter").isGreaterThan(rejectedBefore);
            return result;
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
