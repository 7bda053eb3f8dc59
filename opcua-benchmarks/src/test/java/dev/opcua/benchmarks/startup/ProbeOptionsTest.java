package dev.opcua.benchmarks.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProbeOptionsTest {

    @Test
    void the_command_is_everything_after_the_double_dash() {
        ProbeOptions options = ProbeOptions.parse("--endpoint", "opc.tcp://localhost:4840/", "--dir", "/tmp/plant",
                "--idle-s", "0", "--", "java", "-Xmx128m", "-jar", "server.jar", "--", "--server.port=1");

        assertThat(options.endpointUrl()).isEqualTo("opc.tcp://localhost:4840/");
        assertThat(options.command()).containsExactly("java", "-Xmx128m", "-jar", "server.jar", "--",
                "--server.port=1");
        assertThat(options.directory()).isEqualTo(Path.of("/tmp/plant"));
        assertThat(options.log()).isEqualTo(Path.of("/tmp/plant/server.log"));
        assertThat(options.idle()).isZero();
        assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void a_missing_endpoint_is_refused_with_the_usage() {
        assertThatThrownBy(() -> ProbeOptions.parse("--", "java", "-version"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--endpoint opc.tcp://HOST:PORT/ is required")
                .hasMessageContaining("usage:");
    }

    @Test
    void a_missing_command_is_refused() {
        assertThatThrownBy(() -> ProbeOptions.parse("--endpoint", "opc.tcp://localhost:4840/", "--"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no command after --");
    }

    @Test
    void a_bad_number_names_its_option() {
        assertThatThrownBy(() -> ProbeOptions.parse("--endpoint", "opc.tcp://localhost:4840/", "--timeout-s", "0",
                "--", "java"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--timeout-s must be above 0, got 0");
        assertThatThrownBy(() -> ProbeOptions.parse("--endpoint", "opc.tcp://localhost:4840/", "--idle-s", "five",
                "--", "java"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--idle-s takes a whole number of 0 or more, got five");
    }

    @Test
    void an_unknown_option_is_named() {
        assertThatThrownBy(() -> ProbeOptions.parse("--port", "4840", "--", "java"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --port");
    }
}
