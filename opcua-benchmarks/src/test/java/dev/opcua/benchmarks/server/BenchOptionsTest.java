package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void defaults_and_overrides() {
        assertThat(BenchOptions.parse()).isEqualTo(new BenchOptions(4841, 1000, "localhost", 16, 2000, null, false));
        assertThat(BenchOptions.parse("--port", "0", "--nodes", "5", "--host", "bench", "--threads", "2",
                "--max-queued", "10")).isEqualTo(new BenchOptions(0, 5, "bench", 2, 10, null, false));
        assertThat(BenchOptions.parse("--pki", "build/pki", "--trust-all-clients", "--port", "0"))
                .isEqualTo(new BenchOptions(0, 1000, "localhost", 16, 2000, Path.of("build/pki"), true));
    }

    @Test
    void bad_options_name_the_problem_and_the_usage() {
        assertThatThrownBy(() -> BenchOptions.parse("--bogus", "1")).hasMessageContaining("unknown option --bogus")
                .hasMessageContaining("--nodes");
        assertThatThrownBy(() -> BenchOptions.parse("--nodes", "x")).hasMessageContaining("--nodes needs an integer");
        assertThatThrownBy(() -> BenchOptions.parse("--nodes", "0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> BenchOptions.parse("--port", "70000")).hasMessageContaining("0..65535");
        assertThatThrownBy(() -> BenchOptions.parse("--port")).hasMessageContaining("missing value for --port");
        assertThatThrownBy(() -> BenchOptions.parse("--trust-all-clients")).hasMessageContaining("needs --pki");
        assertThatThrownBy(() -> BenchOptions.parse("--port", "0", "--pki"))
                .hasMessageContaining("missing value for --pki");
    }

    @Test
    void simulate_takes_the_variables_and_the_rate() {
        BenchOptions options = BenchOptions.parse("--nodes", "100", "--simulate", "50,500");

        assertThat(options.simulates()).isTrue();
        assertThat(options.simulatedVariables()).isEqualTo(50);
        assertThat(options.simulatedRate()).isEqualTo(500);
        assertThat(BenchOptions.DEFAULT.simulates()).isFalse();
        assertThatThrownBy(() -> BenchOptions.parse("--simulate", "50")).hasMessageContaining("needs N,RATE");
        assertThatThrownBy(() -> BenchOptions.parse("--simulate", "0,10")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> BenchOptions.parse("--nodes", "10", "--simulate", "20,10"))
                .hasMessageContaining("1..10 (--nodes)");
    }

    @Test
    void a_pki_without_trust_all_keeps_the_trust_list() {
        BenchOptions options = BenchOptions.parse("--pki", "pki");

        assertThat(options.pki()).isEqualTo(Path.of("pki"));
        assertThat(options.trustAllClients()).isFalse();
        assertThat(BenchOptions.DEFAULT.withPort(0).withPki(Path.of("p"), true))
                .isEqualTo(new BenchOptions(0, 1000, "localhost", 16, 2000, Path.of("p"), true));
        assertThat(BenchOptions.USAGE).contains("--pki DIR").contains("--trust-all-clients");
    }
}
