package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Runs the {@code sub} scenario against a running server and returns its RESULT fields. */
final class SubScenarioRuns {

    static final String[] KEYS = {"scenario", "server", "security", "sessions", "subscriptions", "items",
        "monitored_items", "publishing_ms", "sampling_ms", "duration_s", "notifications",
        "notifications_per_s", "delivery_ratio", "p50_us", "p90_us", "p99_us", "max_us", "keepalives", "errors",
        "server_cpu_us_per_notification", "server_alloc_b_per_notification", "server_jit_ms",
        "client_cpu_us_per_notification",
        "client_alloc_b_per_notification", "ops_per_s", "server_cpu_us_per_op"};

    private SubScenarioRuns() {
    }

    /** 2 sessions x 1 subscription x 10 items, publishing every 100 ms, sampling every {@code samplingMs}, 1 s. */
    static Map<String, String> smoke(String url, int samplingMs) {
        Map<String, String> result = run("--url", url, "--scenario", "sub", "--sessions", "2", "--subscriptions", "1",
                "--items", "10", "--nodes", "100", "--publishing-ms", "100", "--sampling-ms",
                Integer.toString(samplingMs), "--duration", "1", "--warmup", "0");
        assertThat(result).containsKey("writes_per_s");
        assertThat(Double.parseDouble(result.get("writes_per_s"))).isGreaterThan(100);
        return result;
    }

    /**
     * {@link #smoke} with server-side changes: the server at {@code url} was started with {@code --simulate
     * 20,200} (what the harness asks of a child server for these options).
     */
    static Map<String, String> serverChanges(String url) {
        Map<String, String> result = run("--url", url, "--scenario", "sub", "--changes", "server", "--sessions",
                "2", "--subscriptions", "1", "--items", "10", "--nodes", "100", "--publishing-ms", "100",
                "--duration", "1", "--warmup", "0");
        assertThat(result.get("changes")).isEqualTo("server");
        assertThat(Double.parseDouble(result.get("changes_per_s"))).isGreaterThan(100);
        return result;
    }

    /** 2 sessions x 2 subscriptions x 1 event item, 500 events per second, 1 s. */
    static Map<String, String> events(String url) {
        Map<String, String> result = run("--url", url, "--scenario", "events", "--sessions", "2", "--subscriptions",
                "2", "--write-rate", "500", "--duration", "1", "--warmup", "0");
        assertThat(result.get("scenario")).isEqualTo("events");
        assertThat(result.get("monitored_items")).isEqualTo("4");
        assertThat(Double.parseDouble(result.get("emitted_per_s"))).isGreaterThan(100);
        return result;
    }

    private static Map<String, String> run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(log).isZero();
        String line = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(line).as(log).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        assertThat(result).as(log).containsKeys(KEYS);
        assertThat(result.get("errors")).as(log).isEqualTo("0");
        assertThat(Long.parseLong(result.get("notifications"))).as(log).isPositive();
        assertThat(Double.parseDouble(result.get("delivery_ratio"))).as(log).isGreaterThan(0.9);
        return result;
    }

    /** The checks every server must pass in the smoke run. */
    static void assertDelivers(Map<String, String> result) {
        assertThat(result.get("scenario")).isEqualTo("sub");
        assertThat(result.get("monitored_items")).isEqualTo("20");
        assertThat(Double.parseDouble(result.get("p50_us"))).isPositive();
        assertThat(result.get("server_cpu_us_per_notification")).isEqualTo("n/a");
    }
}
