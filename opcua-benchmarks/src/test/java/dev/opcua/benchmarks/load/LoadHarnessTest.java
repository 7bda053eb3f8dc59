package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The harness's command line, before it connects anywhere. */
class LoadHarnessTest {

    @Test
    void a_usage_error_exits_with_2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadHarness.run(new String[] {"--scenario", "fly", "--url", "opc.tcp://localhost:4841/"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--scenario").contains("usage:");
    }
}
