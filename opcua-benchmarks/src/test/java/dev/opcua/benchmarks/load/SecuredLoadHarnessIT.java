package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.BenchServer;
import dev.opcua.benchmarks.server.MiloBenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness over Basic256Sha256 SignAndEncrypt against in-process bench servers with a fresh PKI. */
class SecuredLoadHarnessIT {

    @Test
    void reads_from_and_connects_to_milo_over_sign_and_encrypt(@TempDir Path pki) {
        try (RunningBenchServer milo = MiloBenchServer.start(options(pki))) {
            for (String scenario : new String[] {"read", "connect"}) {
                Map<String, String> result = run(milo.endpointUrl(), scenario);

                assertThat(result.get("scenario")).isEqualTo(scenario);
                assertThat(result.get("security")).isEqualTo("Basic256Sha256/SignAndEncrypt");
                assertThat(Long.parseLong(result.get("ops"))).as("%s", result).isPositive();
                assertThat(result.get("errors")).as("%s", result).isEqualTo("0");
            }
        }
    }

    @Test
    void reads_from_our_server_over_sign_and_encrypt(@TempDir Path pki) {
        try (RunningBenchServer ours = BenchServer.start(options(pki))) {
            Map<String, String> result = run(ours.endpointUrl(), "read");

            assertThat(result.get("security")).isEqualTo("Basic256Sha256/SignAndEncrypt");
            assertThat(Long.parseLong(result.get("ops"))).as("%s", result).isPositive();
            assertThat(result.get("errors")).as("%s", result).isEqualTo("0");
        }
    }

    private static BenchOptions options(Path pki) {
        return BenchOptions.DEFAULT.withPort(0).withNodes(100).withPki(pki, true);
    }

    private static Map<String, String> run(String url, String scenario) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--url", url, "--scenario", scenario, "--nodes", "100",
            "--duration", "1", "--warmup", "0", "--sessions", "2", "--security", "encrypt", "--policy",
            "Basic256Sha256"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("security Basic256Sha256/SignAndEncrypt");
        String line = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(line).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }
}
