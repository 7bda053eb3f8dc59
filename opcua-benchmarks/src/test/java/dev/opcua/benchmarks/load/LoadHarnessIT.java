package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.BenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The harness against in-process bench servers and a child server: every scenario and client measures. */
class LoadHarnessIT {

    private static final String[] KEYS = {"scenario", "server", "security", "sessions", "inflight", "values",
        "duration_s", "ops", "ops_per_s", "p50_us", "p90_us", "p99_us", "max_us", "errors", "server_cpu_us_per_op",
        "server_alloc_b_per_op", "client_cpu_us_per_op", "client_alloc_b_per_op"};

    private static RunningBenchServer server;

    @BeforeAll
    static void startServer() {
        server = BenchServer.start(BenchOptions.DEFAULT.withPort(0).withNodes(100));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"read", "write", "browse", "connect"})
    void measures_against_a_running_server(String scenario) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--url", server.endpointUrl(), "--scenario", scenario, "--values", "3",
            "--nodes", "100", "--duration", "1", "--warmup", "0", "--sessions", "2", "--inflight", "2"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String line = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(line).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        assertThat(result).containsKeys(KEYS);
        assertThat(result.get("scenario")).isEqualTo(scenario);
        assertThat(result.get("security")).isEqualTo("None");
        assertThat(Long.parseLong(result.get("ops"))).isPositive();
        assertThat(result.get("errors")).isEqualTo("0");
        assertThat(Double.parseDouble(result.get("p50_us"))).isPositive();
        assertThat(result.get("server_cpu_us_per_op")).isEqualTo("n/a");
        assertThat(result.get("server_alloc_b_per_op")).isEqualTo("n/a");
    }

    @ParameterizedTest
    @ValueSource(strings = {"raw", "ours", "milo"})
    void browses_the_bench_folder_with_every_client(String client) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--url", server.endpointUrl(), "--scenario", "browse", "--browse",
            "bench", "--client", client, "--nodes", "100", "--duration", "1", "--warmup", "0", "--sessions", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(Long.parseLong(result.get("ops"))).isPositive();
        assertThat(result.get("errors")).as(err.toString(StandardCharsets.UTF_8)).isEqualTo("0");
    }

    @Test
    void measures_cpu_and_allocation_of_a_child_server() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--server", "ours", "--scenario", "read", "--nodes", "10",
            "--duration", "1", "--warmup", "0", "--sessions", "1", "--inflight", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(result.get("server")).isEqualTo("ours");
        assertThat(Long.parseLong(result.get("ops"))).isPositive();
        assertThat(Double.parseDouble(result.get("server_cpu_us_per_op"))).isPositive();
        assertThat(Long.parseLong(result.get("server_alloc_b_per_op"))).isPositive();
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
