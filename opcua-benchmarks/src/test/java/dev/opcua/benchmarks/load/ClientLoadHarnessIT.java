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
import org.junit.jupiter.params.provider.CsvSource;

/** The harness through the public API of our client and of Milo's, against an in-process bench server. */
class ClientLoadHarnessIT {

    private static final String[] KEYS = {"scenario", "server", "client", "security", "sessions", "inflight", "values",
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
    @CsvSource({"ours, read", "milo, read", "ours, write", "milo, write", "ours, browse", "milo, browse"})
    void drives_the_server_through_the_client_api(String client, String scenario) {
        Map<String, String> result = run("--client", client, "--scenario", scenario, "--values", "3");

        assertThat(result).containsKeys(KEYS);
        assertThat(result.get("client")).isEqualTo(client);
        assertThat(result.get("scenario")).isEqualTo(scenario);
        assertThat(Long.parseLong(result.get("ops"))).as("%s", result).isPositive();
        assertThat(result.get("errors")).as("%s", result).isEqualTo("0");
        assertThat(Long.parseLong(result.get("client_alloc_b_per_op"))).as("%s", result).isPositive();
        assertThat(Double.parseDouble(result.get("client_cpu_us_per_op"))).as("%s", result).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"ours", "milo"})
    void subscribes_through_the_client_api_to_the_values_the_writer_writes(String client) {
        assertDelivers(run("--client", client, "--scenario", "sub", "--items", "10", "--publishing-ms", "100"),
                client);
    }

    /** The cleanest comparison of client cost: no writer, the server changes the values itself. */
    @ParameterizedTest
    @CsvSource({"ours", "milo", "raw"})
    void subscribes_to_the_values_the_server_changes_with_every_client(String client) {
        try (RunningBenchServer simulating = BenchServer.start(BenchOptions.parse("--port", "0", "--nodes", "100",
                "--simulate", "20,200"))) {
            Map<String, String> result = runAt(simulating.endpointUrl(), "--client", client, "--scenario", "sub",
                    "--changes", "server", "--items", "10", "--publishing-ms", "100");
            assertDelivers(result, client);
            assertThat(result.get("changes")).isEqualTo("server");
        }
    }

    private static void assertDelivers(Map<String, String> result, String client) {
        assertThat(result).containsKeys(SubScenarioRuns.KEYS);
        assertThat(result.get("client")).isEqualTo(client);
        assertThat(result.get("scenario")).isEqualTo("sub");
        assertThat(Long.parseLong(result.get("notifications"))).as("%s", result).isPositive();
        assertThat(Double.parseDouble(result.get("delivery_ratio"))).as("%s", result).isPositive();
        assertThat(result.get("errors")).as("%s", result).isEqualTo("0");
        assertThat(Long.parseLong(result.get("client_alloc_b_per_notification"))).as("%s", result).isPositive();
        assertThat(Double.parseDouble(result.get("client_cpu_us_per_notification"))).as("%s", result).isPositive();
        assertThat(result).containsKey("client_threads_cpu_us_per_notification");
    }

    @Test
    void the_default_client_is_ours_and_raw_stays_available() {
        assertThat(run().get("client")).isEqualTo("ours");
        assertThat(run("--client", "raw").get("client")).isEqualTo("raw");
    }

    @Test
    void a_namespace_the_server_does_not_have_fails_the_run_naming_it() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(args(server.endpointUrl(), "--namespace", "urn:peer:bench"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("urn:peer:bench");
    }

    private static String[] args(String url, String... extra) {
        String[] base = {"--url", url, "--nodes", "100", "--duration", "1", "--warmup", "0",
            "--sessions", "2", "--inflight", "2"};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    private static Map<String, String> run(String... extra) {
        return runAt(server.endpointUrl(), extra);
    }

    private static Map<String, String> runAt(String url, String... extra) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(args(url, extra), new PrintStream(out, true, StandardCharsets.UTF_8),
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
        return result;
    }
}
